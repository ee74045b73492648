import { randomUUID } from 'node:crypto';
import { openapiDocumentPath, readOpenApiDocument, requestExamples } from '@msg/contracts';
import { createRbmClient, signData } from '@msg/rbm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushEventId } from '../src/inbound/event-mapping.js';
import { CLIENT_TOKEN, PUSH_PATH, type RcsWithRbm, startRcsWithRbm } from './rbm-support.js';

const AGENT = 'inbound-agent';
const EVENT_ID = /^evt_[0-9a-f]{32}$/;

/** A push as RBM sends it, signed with `token` unless a signature is given. */
function push(event: object, { token = CLIENT_TOKEN, messageId = randomUUID() } = {}) {
  const data = Buffer.from(JSON.stringify(event));
  const body = JSON.stringify({
    message: { data: data.toString('base64'), messageId, publishTime: new Date().toISOString() },
    subscription: 'projects/test/subscriptions/rbm',
  });
  return { body, signature: signData(data, token), messageId };
}

describe('RBM push endpoint POST /rcs/v1/rbm/events (spec 6.3, 7.4)', () => {
  let env: RcsWithRbm;
  let phoneSeq = 0;
  /** A fresh user number per test: events are told apart by sender. */
  const phone = () => `+4670${String(1_000_000 + ++phoneSeq).padStart(7, '0')}`;
  const post = (body: string, signature?: string) => {
    const req = request(env.rcs.app).post(PUSH_PATH).set('content-type', 'application/json');
    return (signature === undefined ? req : req.set('x-goog-signature', signature)).send(body);
  };
  const inject = async (path: string, body: object) => {
    const answer = await env.control<{ pushed: boolean; event: { messageId: string } }>(
      'POST',
      path,
      { agentId: AGENT, ...body },
    );
    expect(answer.status).toBe(200);
    // The simulator only counts a push as delivered on a 2xx from the service.
    expect(answer.body.pushed).toBe(true);
    return answer.body.event;
  };
  const sendAs = (recipient: string) =>
    env.rcs.send(env.acct, { recipient, agent_id: AGENT, message: { text: 'Hi' } });

  beforeAll(async () => {
    env = await startRcsWithRbm();
    await env.agent(AGENT);
  }, 60_000);

  afterAll(async () => {
    await env?.stop();
  });

  describe('handshake', () => {
    it('when the simulator first pushes, then it has completed the set-up handshake with the service', async () => {
      await inject(`/users/${phone()}/events`, { eventType: 'IS_TYPING' });
      const stats = await env.control<{ handshakes: number; handshakeFailures: number }>(
        'GET',
        '/stats',
      );
      expect(stats.body.handshakes).toBeGreaterThanOrEqual(1);
      expect(stats.body.handshakeFailures).toBe(0);
    });

    it('when the handshake names our client token, then 200 with the secret as the body', async () => {
      const res = await post(JSON.stringify({ clientToken: CLIENT_TOKEN, secret: 's3cr3t' }));
      expect(res.status).toBe(200);
      expect(res.text).toBe('s3cr3t');
    });

    it('when the handshake names another token, then 403 in the 7.4 format and counted', async () => {
      const before = await env.counter('rcs_inbound_push_refused_total', 'reason="handshake"');
      const res = await post(JSON.stringify({ clientToken: 'other', secret: 's3cr3t' }));
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'FORBIDDEN', details: {} });
      expect(res.text).not.toContain('s3cr3t');
      expect(await env.counter('rcs_inbound_push_refused_total', 'reason="handshake"')).toBe(
        before + 1,
      );
    });
  });

  describe('signature', () => {
    const event = () => ({ senderPhoneNumber: phone(), agentId: AGENT, text: 'forged' });

    it('when X-Goog-Signature is forged (another key), then 403, counted, and no event', async () => {
      const forged = push(event(), { token: 'not-the-client-token' });
      const before = await env.counter('rcs_inbound_push_refused_total', 'reason="signature"');
      const res = await post(forged.body, forged.signature);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        code: 'FORBIDDEN',
        message: expect.stringContaining('X-Goog-Signature'),
        details: {},
      });
      expect(await env.counter('rcs_inbound_push_refused_total', 'reason="signature"')).toBe(
        before + 1,
      );
      expect(env.eventsWhere((e) => e.event.text === 'forged')).toEqual([]);
    });

    it("when the document's example push is signed as RBM signs, then it is accepted (the suite cannot sign it)", async () => {
      const example = requestExamples(readOpenApiDocument(openapiDocumentPath('rcs'))).find(
        (candidate) => candidate.template === PUSH_PATH,
      );
      const body = example?.body as { message: { data: string } };
      const data = Buffer.from(body.message.data, 'base64');
      const res = await post(JSON.stringify(body), signData(data, CLIENT_TOKEN));
      expect(res.status, res.text).toBe(200);
    });

    it('when the signature is missing, or the body was altered after signing, then 403', async () => {
      const signed = push(event());
      expect((await post(signed.body)).status).toBe(403);
      const altered = signed.body.replace('"subscription":"projects', '"subscription": "projects');
      // The envelope is not signed, the data is: re-encoding the data breaks it.
      const tampered = JSON.parse(signed.body);
      tampered.message.data = Buffer.from(
        JSON.stringify({ ...event(), text: 'tampered' }),
      ).toString('base64');
      expect((await post(JSON.stringify(tampered), signed.signature)).status).toBe(403);
      // Bytes outside `data` may change (RBM signs the decoded data only).
      expect((await post(altered, signed.signature)).status).toBe(200);
    });

    it('when a signed push carries data that is not an RBM event, then 400 naming message.data', async () => {
      const data = Buffer.from('not json');
      const body = JSON.stringify({
        message: { data: data.toString('base64'), messageId: randomUUID() },
      });
      const res = await post(body, signData(data, CLIENT_TOKEN));
      expect(res.status).toBe(400);
      expect(res.body.details.errors[0].loc).toEqual(['body', 'message', 'data']);
    });
  });

  describe('user events become rcs.events.v1 events (2.5 event table)', () => {
    it('when the user sends text, then rcs.in.text with text and sender_phone_number', async () => {
      const user = phone();
      const pushed = await inject(`/users/${user}/text`, { text: 'Hello agent' });
      const [event] = await env.awaitEvents(AGENT, 'rcs.in.text', user);
      expect(event?.event).toEqual({
        event_type: 'rcs.in.text',
        agent_id: AGENT,
        send_time: expect.any(String),
        event_id: expect.stringMatching(EVENT_ID),
        message_id: pushed.messageId,
        sender_phone_number: user,
        text: 'Hello agent',
      });
    });

    it('when the user sends a file with a thumbnail, then rcs.in.file with user_file payload and thumbnail', async () => {
      const user = phone();
      await inject(`/users/${user}/file`, {
        fileUri: 'https://files.example.com/cat.png',
        mimeType: 'image/png',
        fileName: 'cat.png',
        fileSizeBytes: 2048,
        thumbnailUri: 'https://files.example.com/cat-thumb.jpg',
      });
      const [event] = await env.awaitEvents(AGENT, 'rcs.in.file', user);
      expect(event?.event.user_file).toEqual({
        payload: {
          mime_type: 'image/png',
          file_size_bytes: 2048,
          file_name: 'cat.png',
          file_uri: 'https://files.example.com/cat.png',
        },
        thumbnail: {
          mime_type: 'image/jpeg',
          file_size_bytes: 128,
          file_uri: 'https://files.example.com/cat-thumb.jpg',
        },
      });
    });

    it('when the user presses a reply suggestion, then rcs.in.suggested.reply with content_message.suggestion_response', async () => {
      const user = phone();
      await inject(`/users/${user}/suggestion`, {
        type: 'REPLY',
        text: 'Yes',
        postbackData: 'answer=yes',
      });
      const [event] = await env.awaitEvents(AGENT, 'rcs.in.suggested.reply', user);
      expect(event?.event.content_message).toEqual({
        suggestion_response: { postback_data: 'answer=yes', text: 'Yes', type: 'REPLY' },
      });
    });

    it('when the user presses an action suggestion, then rcs.in.suggested.action with type ACTION', async () => {
      const user = phone();
      await inject(`/users/${user}/suggestion`, {
        type: 'ACTION',
        text: 'Call us',
        postbackData: 'dial',
      });
      const [event] = await env.awaitEvents(AGENT, 'rcs.in.suggested.action', user);
      expect(event?.event.content_message?.suggestion_response).toEqual({
        postback_data: 'dial',
        text: 'Call us',
        type: 'ACTION',
      });
    });

    it('when the user is typing, then no event, and the push is counted', async () => {
      const user = phone();
      const before = await env.counter('rcs_inbound_pushes_total', 'outcome="typing"');
      await inject(`/users/${user}/events`, { eventType: 'IS_TYPING' });
      expect(await env.counter('rcs_inbound_pushes_total', 'outcome="typing"')).toBe(before + 1);
      // A later text from the same user is published: the typing push made none before it.
      await inject(`/users/${user}/text`, { text: 'after typing' });
      await env.awaitEvents(AGENT, 'rcs.in.text', user);
      expect(env.eventsWhere((e) => e.event.sender_phone_number === user)).toHaveLength(1);
    });

    it('when a message of ours is delivered and read, then rcs.out.delivered and rcs.out.read with message_id and client_message_id, and the state moves to read', async () => {
      const user = phone();
      const accepted = await env.rcs.send(env.acct, {
        recipient: user,
        agent_id: AGENT,
        message: { text: 'Your order shipped' },
        client_message_id: 'order-42',
      });
      expect(accepted.status).toBe(202);
      const messageId: string = accepted.body.message_id;
      // What the delivery worker does: our message id is RBM's messageId.
      const client = createRbmClient({
        baseUrl: env.sim.url,
        tokenUrl: env.sim.tokenUrl,
        serviceAccount: env.key,
      });
      await client.sendMessage(AGENT, user, messageId, {
        contentMessage: { text: 'Your order shipped' },
      });
      const [delivered] = await env.awaitEvents(AGENT, 'rcs.out.delivered', user);
      const [read] = await env.awaitEvents(AGENT, 'rcs.out.read', user);
      for (const [event, type] of [
        [delivered, 'rcs.out.delivered'],
        [read, 'rcs.out.read'],
      ] as const) {
        expect(event).toMatchObject({ agentId: AGENT, accountId: env.acct.id, messageId });
        expect(event?.event).toEqual({
          event_type: type,
          agent_id: AGENT,
          send_time: expect.any(String),
          event_id: expect.stringMatching(EVENT_ID),
          message_id: messageId,
          client_message_id: 'order-42',
          sender_phone_number: user,
        });
      }
      const { rows } = await env.rcs.pool.query(
        `SELECT "state", "delivered_at", "read_at" FROM "rcs"."messages" WHERE "id" = $1`,
        [messageId],
      );
      expect(rows[0]).toMatchObject({ state: 'read', delivered_at: expect.any(Date) });
      expect(rows[0].read_at).toBeInstanceOf(Date);
    });

    it('when DELIVERED arrives after READ, then the state stays read (forward only) and each event comes once', async () => {
      const user = phone();
      const accepted = await env.rcs.send(env.acct, {
        recipient: user,
        agent_id: AGENT,
        message: { text: 'x' },
      });
      const messageId: string = accepted.body.message_id;
      const status = (eventType: string) =>
        push({ senderPhoneNumber: user, agentId: AGENT, messageId, eventType });
      for (const p of [status('READ'), status('DELIVERED'), status('DELIVERED')]) {
        expect((await post(p.body, p.signature)).status).toBe(200);
      }
      await env.awaitEvents(AGENT, 'rcs.out.delivered', user);
      const { rows } = await env.rcs.pool.query(
        `SELECT "state" FROM "rcs"."messages" WHERE "id" = $1`,
        [messageId],
      );
      expect(rows[0].state).toBe('read');
      const types = env
        .eventsWhere((e) => e.event.sender_phone_number === user)
        .map((e) => e.payload.event.event_type);
      expect(types.sort()).toEqual(['rcs.out.delivered', 'rcs.out.read']);
      // The client_message_id is only present when supplied on send.
      expect(
        env.eventsWhere((e) => e.event.sender_phone_number === user)[0]?.payload.event,
      ).not.toHaveProperty('client_message_id');
    });
  });

  describe('delivery guarantees', () => {
    it('when RBM delivers the same push twice, then both are acknowledged and there is one event with the id derived from the push', async () => {
      const user = phone();
      const p = push({ senderPhoneNumber: user, agentId: AGENT, text: 'twice' });
      expect((await post(p.body, p.signature)).status).toBe(200);
      expect((await post(p.body, p.signature)).status).toBe(200);
      const [event] = await env.awaitEvents(AGENT, 'rcs.in.text', user);
      expect(event?.event.event_id).toBe(pushEventId(p.messageId));
      // Give the relay time to publish a second one, were there one.
      const probe = push({ senderPhoneNumber: user, agentId: AGENT, text: 'probe' });
      await post(probe.body, probe.signature);
      await env.awaitEvents(AGENT, 'rcs.in.text', user, 2);
      expect(env.eventsWhere((e) => e.event.text === 'twice')).toHaveLength(1);
    });

    it('when a push names an unknown agent, then 200 (RBM stops retrying), counted, and no event', async () => {
      const user = phone();
      const before = await env.counter('rcs_inbound_pushes_total', 'outcome="unknown_agent"');
      const p = push({ senderPhoneNumber: user, agentId: 'no-such-agent', text: 'hello?' });
      expect((await post(p.body, p.signature)).status).toBe(200);
      expect(await env.counter('rcs_inbound_pushes_total', 'outcome="unknown_agent"')).toBe(
        before + 1,
      );
      expect(env.eventsWhere((e) => e.event.text === 'hello?')).toEqual([]);
    });
  });

  describe('subscriptions (6.3: unsubscribe honoured immediately)', () => {
    it('when the user unsubscribes, then rcs.sub.unsubscribed and a send to them is 400 RECIPIENT_UNSUBSCRIBED; after SUBSCRIBE, rcs.sub.subscribed and sends are accepted', async () => {
      const user = phone();
      expect((await sendAs(user)).status).toBe(202);
      await inject(`/users/${user}/events`, { eventType: 'UNSUBSCRIBE' });
      await env.awaitEvents(AGENT, 'rcs.sub.unsubscribed', user);
      const refused = await sendAs(user);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        code: 'RECIPIENT_UNSUBSCRIBED',
        message: expect.stringContaining('unsubscribed'),
        details: {
          errors: [{ loc: ['body', 'recipient'], msg: expect.any(String), type: 'unsubscribed' }],
        },
      });
      await inject(`/users/${user}/events`, { eventType: 'SUBSCRIBE' });
      await env.awaitEvents(AGENT, 'rcs.sub.subscribed', user);
      expect((await sendAs(user)).status).toBe(202);
    });

    it('when the user texts a stop word, then rcs.in.text and rcs.sub.unsubscribed and sends are refused; a start word subscribes again', async () => {
      const user = phone();
      await inject(`/users/${user}/text`, { text: ' stop! ' });
      await env.awaitEvents(AGENT, 'rcs.in.text', user);
      const [unsubscribed] = await env.awaitEvents(AGENT, 'rcs.sub.unsubscribed', user);
      const [text] = await env.awaitEvents(AGENT, 'rcs.in.text', user);
      expect(unsubscribed?.event.event_id).not.toBe(text?.event.event_id);
      expect((await sendAs(user)).body.code).toBe('RECIPIENT_UNSUBSCRIBED');
      await inject(`/users/${user}/text`, { text: 'START' });
      await env.awaitEvents(AGENT, 'rcs.sub.subscribed', user);
      expect((await sendAs(user)).status).toBe(202);
    });

    it('when a text merely contains a stop word, then it is a conversation: no unsubscribe', async () => {
      const user = phone();
      await inject(`/users/${user}/text`, { text: 'please stop by tomorrow' });
      await env.awaitEvents(AGENT, 'rcs.in.text', user);
      expect((await sendAs(user)).status).toBe(202);
      expect(
        env.eventsWhere(
          (e) =>
            e.event.sender_phone_number === user && e.event.event_type === 'rcs.sub.unsubscribed',
        ),
      ).toEqual([]);
    });

    it('when a user unsubscribes from one agent, then sends from another agent are still accepted', async () => {
      const user = phone();
      await env.agent('other-inbound-agent');
      await inject(`/users/${user}/events`, { eventType: 'UNSUBSCRIBE' });
      await env.awaitEvents(AGENT, 'rcs.sub.unsubscribed', user);
      const other = await env.rcs.send(env.acct, {
        recipient: user,
        agent_id: 'other-inbound-agent',
        message: { text: 'Hi' },
      });
      expect(other.status).toBe(202);
    });
  });
});
