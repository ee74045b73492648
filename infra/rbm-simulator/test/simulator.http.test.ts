import { createRbmClient, RbmError, type RbmPushEvent } from '@msg/rbm';
import { eventually } from '@msg/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RbmSimulator, startRbmSimulator } from '../src/index.js';
import { agentWebhook, CLIENT_TOKEN, control, forgedPush, serviceAccountKey } from './support.js';

const AGENT = 'sim_agent';
const PHONE = '+447700900123';
const key = serviceAccountKey();

let sim: RbmSimulator;
let webhook: Awaited<ReturnType<typeof agentWebhook>>;
let rbm: ReturnType<typeof createRbmClient>;

beforeAll(async () => {
  webhook = await agentWebhook();
  sim = await startRbmSimulator({
    serviceAccount: { clientEmail: key.client_email, key: key.private_key },
    webhook: { url: webhook.url, clientToken: CLIENT_TOKEN },
    deliverDelayMs: 10,
    readDelayMs: 10,
    pushRetryBaseMs: 10,
  });
  rbm = createRbmClient({ baseUrl: sim.url, tokenUrl: sim.tokenUrl, serviceAccount: key });
});
afterAll(async () => {
  await sim?.close();
  await webhook?.close();
});
beforeEach(async () => {
  await control(sim.url, 'POST', '/reset');
  webhook.events.length = 0;
});

const statusOf = (messageId: string, eventType: string) => () =>
  webhook.events.find(
    (e: RbmPushEvent) =>
      e.kind === 'status' && e.eventType === eventType && e.messageId === messageId,
  );

describe('client against the simulator', () => {
  it('send: DELIVERED then READ are pushed, signed, after the set-up handshake', async () => {
    const answer = await rbm.sendMessage(AGENT, PHONE, 'msg-1', {
      contentMessage: {
        text: 'Hello',
        suggestions: [{ reply: { text: 'Hi', postbackData: 'hi' } }],
      },
      messageTrafficType: 'TRANSACTION',
      ttl: '600s',
    });
    expect(answer.name).toBe(`phones/${PHONE}/agentMessages/msg-1`);
    const delivered = await eventually(statusOf('msg-1', 'DELIVERED'), 'DELIVERED push', 15_000);
    const read = await eventually(statusOf('msg-1', 'READ'), 'READ push', 15_000);
    expect(delivered).toMatchObject({ senderPhoneNumber: PHONE, agentId: AGENT });
    expect(webhook.events.indexOf(delivered)).toBeLessThan(webhook.events.indexOf(read));
    expect(webhook.counts.handshakes).toBeGreaterThanOrEqual(1);
    expect(webhook.counts.forged).toBe(0);
    const { body } = await control(sim.url, 'GET', `/messages?phone=${encodeURIComponent(PHONE)}`);
    expect(body.messages).toEqual([
      expect.objectContaining({ messageId: 'msg-1', agentId: AGENT, status: 'READ' }),
    ]);
  });

  it('capability: features for a capable number, not reachable for a not capable one', async () => {
    expect(await rbm.getCapabilities(AGENT, PHONE)).toEqual({
      reachable: true,
      features: expect.arrayContaining(['RICHCARD_STANDALONE', 'RICHCARD_CAROUSEL', 'ACTION_DIAL']),
    });
    expect(
      await control(sim.url, 'PUT', `/devices/${encodeURIComponent(PHONE)}`, { capable: false }),
    ).toMatchObject({ status: 200 });
    expect(await rbm.getCapabilities(AGENT, PHONE)).toEqual({ reachable: false });
    expect(await rbm.getCapabilities(AGENT, '+447700900999')).toEqual({ reachable: false });
    await control(sim.url, 'PUT', `/devices/${encodeURIComponent(PHONE)}`, {
      capable: true,
      features: ['ACTION_DIAL'],
    });
    expect(await rbm.getCapabilities(AGENT, PHONE)).toEqual({
      reachable: true,
      features: ['ACTION_DIAL'],
    });
  });

  it('a send to a not capable number is 404 NOT_FOUND', async () => {
    const error = await rbm
      .sendMessage(AGENT, '+447700900999', 'msg-x', { contentMessage: { text: 'x' } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ httpStatus: 404, status: 'NOT_FOUND', retryable: false });
  });

  it('tester: invited PENDING, then ACCEPTED when the user accepts', async () => {
    expect(await rbm.inviteTester(AGENT, PHONE)).toEqual({
      name: `phones/${PHONE}/testers`,
      inviteStatus: 'PENDING',
    });
    await control(sim.url, 'PUT', `/testers/${encodeURIComponent(PHONE)}`, {
      agentId: AGENT,
      inviteStatus: 'ACCEPTED',
    });
    expect(await rbm.inviteTester(AGENT, PHONE)).toMatchObject({ inviteStatus: 'ACCEPTED' });
  });

  it('revoke: a pending message is revoked and never delivered; a delivered one is not_found', async () => {
    await control(sim.url, 'PUT', `/devices/${encodeURIComponent(PHONE)}`, {
      capable: true,
      deliver: false,
    });
    await rbm.sendMessage(AGENT, PHONE, 'msg-2', { contentMessage: { text: 'later' } });
    expect(await rbm.revokeMessage(AGENT, PHONE, 'msg-2')).toBe('revoked');
    expect(await rbm.revokeMessage(AGENT, PHONE, 'msg-2')).toBe('not_found');
    expect((await control(sim.url, 'POST', '/messages/msg-2/deliver')).status).toBe(409);

    await rbm.sendMessage(AGENT, PHONE, 'msg-3', { contentMessage: { text: 'now' } });
    expect((await control(sim.url, 'POST', '/messages/msg-3/deliver')).body).toMatchObject({
      status: 'DELIVERED',
    });
    await eventually(statusOf('msg-3', 'DELIVERED'), 'DELIVERED push', 15_000);
    expect(await rbm.revokeMessage(AGENT, PHONE, 'msg-3')).toBe('not_found');
    expect(webhook.events.some((e) => e.messageId === 'msg-2')).toBe(false);
  });

  it('ttl: an undelivered message expires, is revoked and TTL_EXPIRATION_REVOKED is pushed', async () => {
    await control(sim.url, 'PUT', `/devices/${encodeURIComponent(PHONE)}`, {
      capable: true,
      deliver: false,
    });
    await rbm.sendMessage(AGENT, PHONE, 'msg-ttl', {
      contentMessage: { text: 'soon gone' },
      ttl: '0.05s',
    });
    const expired = await eventually(
      () => webhook.events.find((e) => e.kind === 'server' && e.messageId === 'msg-ttl'),
      'TTL_EXPIRATION_REVOKED push',
      15_000,
    );
    expect(expired).toMatchObject({
      eventType: 'TTL_EXPIRATION_REVOKED',
      phoneNumber: PHONE,
      agentId: AGENT,
    });
    expect(await rbm.revokeMessage(AGENT, PHONE, 'msg-ttl')).toBe('not_found');
  });

  it('error bodies: RBM limits are 400 INVALID_ARGUMENT, a reused messageId is 409, neither retryable', async () => {
    const tooLong = await rbm
      .sendMessage(AGENT, PHONE, 'msg-4', { contentMessage: { text: 'x'.repeat(3073) } })
      .catch((e: unknown) => e);
    expect(tooLong).toBeInstanceOf(RbmError);
    expect(tooLong).toMatchObject({
      httpStatus: 400,
      status: 'INVALID_ARGUMENT',
      retryable: false,
    });
    expect((tooLong as Error).message).toContain('contentMessage.text');

    const carousel = await rbm
      .sendMessage(AGENT, PHONE, 'msg-5', {
        contentMessage: {
          richCard: { carouselCard: { cardWidth: 'SMALL', cardContents: [{ title: 'only one' }] } },
        },
      })
      .catch((e: unknown) => e);
    expect(carousel).toMatchObject({
      status: 'INVALID_ARGUMENT',
      message: expect.stringContaining('2 to 10'),
    });

    await rbm.sendMessage(AGENT, PHONE, 'msg-6', { contentMessage: { text: 'once' } });
    const again = await rbm
      .sendMessage(AGENT, PHONE, 'msg-6', { contentMessage: { text: 'once' } })
      .catch((e: unknown) => e);
    expect(again).toMatchObject({ httpStatus: 409, status: 'ALREADY_EXISTS', retryable: false });
  });

  it('a token assertion signed with another key is refused: UNAUTHENTICATED, not retryable', async () => {
    const other = { ...serviceAccountKey(), client_email: key.client_email };
    const stranger = createRbmClient({
      baseUrl: sim.url,
      tokenUrl: sim.tokenUrl,
      serviceAccount: other,
    });
    const error = await stranger.getCapabilities(AGENT, PHONE).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'RbmError', status: 'UNAUTHENTICATED', retryable: false });
    expect((await control(sim.url, 'GET', '/stats')).body.tokensRefused).toBe(1);
  });

  it('a call without a bearer token is 401 in Google error shape', async () => {
    const response = await fetch(
      `${sim.url}/v1/phones/${encodeURIComponent(PHONE)}/capabilities?requestId=r&agentId=${AGENT}`,
    );
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({
      error: { code: 401, status: 'UNAUTHENTICATED' },
    });
  });
});

describe('injected user traffic arrives decoded and verified', () => {
  const phonePath = encodeURIComponent(PHONE);

  it('text, suggestion reply and action, file, subscribe and unsubscribe', async () => {
    const text = await control(sim.url, 'POST', `/users/${phonePath}/text`, {
      agentId: AGENT,
      text: 'hello agent',
    });
    expect(text.body).toMatchObject({ pushed: true, status: 200 });
    await control(sim.url, 'POST', `/users/${phonePath}/suggestion`, {
      agentId: AGENT,
      type: 'REPLY',
      text: 'Yes',
      postbackData: 'yes',
    });
    await control(sim.url, 'POST', `/users/${phonePath}/suggestion`, {
      agentId: AGENT,
      type: 'ACTION',
      text: 'Call',
      postbackData: 'call',
    });
    await control(sim.url, 'POST', `/users/${phonePath}/file`, {
      agentId: AGENT,
      fileUri: 'https://files.example/photo.jpg',
      mimeType: 'image/jpeg',
      fileName: 'photo.jpg',
      fileSizeBytes: 2048,
      thumbnailUri: 'https://files.example/thumb.jpg',
    });
    await control(sim.url, 'POST', `/users/${phonePath}/events`, {
      agentId: AGENT,
      eventType: 'UNSUBSCRIBE',
    });
    await control(sim.url, 'POST', `/users/${phonePath}/events`, {
      agentId: AGENT,
      eventType: 'SUBSCRIBE',
    });

    expect(webhook.events).toEqual([
      expect.objectContaining({
        kind: 'text',
        text: 'hello agent',
        senderPhoneNumber: PHONE,
        agentId: AGENT,
      }),
      expect.objectContaining({
        kind: 'suggestion',
        suggestionType: 'REPLY',
        text: 'Yes',
        postbackData: 'yes',
      }),
      expect.objectContaining({
        kind: 'suggestion',
        suggestionType: 'ACTION',
        postbackData: 'call',
      }),
      expect.objectContaining({
        kind: 'file',
        file: {
          mimeType: 'image/jpeg',
          fileName: 'photo.jpg',
          fileSizeBytes: 2048,
          fileUri: 'https://files.example/photo.jpg',
        },
        thumbnail: expect.objectContaining({ fileUri: 'https://files.example/thumb.jpg' }),
      }),
      expect.objectContaining({ kind: 'status', eventType: 'UNSUBSCRIBE' }),
      expect.objectContaining({ kind: 'status', eventType: 'SUBSCRIBE' }),
    ]);
  });

  it('bad control input is a 400 naming the field', async () => {
    const answer = await control(sim.url, 'POST', `/users/${phonePath}/suggestion`, {
      agentId: AGENT,
      type: 'TAP',
      text: 'x',
      postbackData: 'y',
    });
    expect(answer).toEqual({
      status: 400,
      body: { error: 'bad_request', message: 'type: REPLY or ACTION' },
    });
    expect((await control(sim.url, 'PUT', '/devices/12345', { capable: true })).status).toBe(400);
  });
});

describe('signatures', () => {
  it('a forged push (signed without the client token) is detected by the webhook', async () => {
    const forged = forgedPush({ senderPhoneNumber: PHONE, text: 'trust me' });
    const response = await fetch(webhook.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-signature': forged.signature },
      body: forged.body,
    });
    expect(response.status).toBe(403);
    expect(webhook.counts.forged).toBe(1);
    expect(webhook.events).toHaveLength(0);
    webhook.counts.forged = 0;
  });

  it('a webhook with another client token refuses the handshake: nothing is pushed', async () => {
    const stranger = await agentWebhook('another-token');
    try {
      sim.setWebhook({ url: stranger.url, clientToken: CLIENT_TOKEN });
      const answer = await control(sim.url, 'POST', `/users/${encodeURIComponent(PHONE)}/text`, {
        agentId: AGENT,
        text: 'hi',
      });
      expect(answer.body).toMatchObject({ pushed: false });
      expect(stranger.events).toHaveLength(0);
      expect((await control(sim.url, 'GET', '/stats')).body.handshakeFailures).toBeGreaterThan(0);
    } finally {
      await control(sim.url, 'PUT', '/webhook', { url: webhook.url, clientToken: CLIENT_TOKEN });
      await stranger.close();
    }
  });
});
