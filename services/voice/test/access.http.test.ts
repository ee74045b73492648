import type { AccountState } from '@msg/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestVoice, type TestVoice } from './support.js';

let voice: TestVoice;
let acct: AccountState;
const body = { to: '+4420799990001', text: 'Hello' };

beforeAll(async () => {
  voice = await startTestVoice();
  acct = await voice.publishAccount(voice.account());
});
afterAll(() => voice?.stop());

describe('GET /txt2voice/v1/health', () => {
  it('when asked without credentials, then 200 status ok', async () => {
    const res = await voice.raw().get('/txt2voice/v1/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });
});

describe('access (spec 5 rule 1, 8.5)', () => {
  it('when no credentials, then 401 with a Basic challenge in the detail shape', async () => {
    const res = await voice.raw().post('/txt2voice/v1/messages').send(body);
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Basic realm="Text-to-voice"/);
    expect(res.body.detail[0]).toMatchObject({ loc: [], type: 'unauthorized' });
  });

  it('when the account lacks the text_to_voice permission, then 403', async () => {
    const other = await voice.publishAccount(voice.account({ permissions: ['sms'] }));
    const res = await voice.send(other, body);
    expect(res.status).toBe(403);
    expect(res.body.detail[0].type).toBe('forbidden');
  });

  it("when past the account's request rate, then 429 with Retry-After", async () => {
    const slow = await voice.publishAccount(
      voice.account({ rateLimit: { perSecond: 1, burst: 2 } }),
    );
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push((await voice.send(slow, body)).status);
    expect(answers).toEqual([202, 202, 429]);
    const res = await voice.send(slow, body);
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    expect(res.body.detail[0].type).toBe('rate_limited');
  });
});

describe('GET /txt2voice/v1/messages/{transaction_id}', () => {
  it('when the message was just accepted, then its status with created', async () => {
    const sent = await voice.send(acct, { ...body, client_reference: 'ref-1' });
    const res = await voice.status(acct, sent.body.transaction_id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      transaction_id: sent.body.transaction_id,
      status: expect.stringMatching(/^(accepted|completed)$/),
      client_reference: 'ref-1',
    });
    expect(Date.parse(res.body.created)).toBeGreaterThan(Date.now() - 60_000);
  });

  it.each(['0c6a4c8e-1111-4222-8333-944455556666', 'not-a-uuid'])(
    'when the id %s is unknown, then 404',
    async (id) => {
      const res = await voice.status(acct, id);
      expect(res.status).toBe(404);
      expect(res.body.detail[0]).toMatchObject({ type: 'not_found' });
    },
  );

  it("when the id is another account's, then 404", async () => {
    const sent = await voice.send(acct, body);
    const other = await voice.publishAccount(voice.account());
    expect((await voice.status(other, sent.body.transaction_id)).status).toBe(404);
  });
});

describe('Idempotency-Key', () => {
  it('when a send is retried with the same key, then the first answer is replayed and one message stored', async () => {
    const key = `k-${Date.now()}`;
    const first = await voice.send(acct, body).set('idempotency-key', key);
    const again = await voice.send(acct, body).set('idempotency-key', key);
    expect(again.status).toBe(202);
    expect(again.body.transaction_id).toBe(first.body.transaction_id);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });
});
