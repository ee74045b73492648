import { generateKeyPairSync } from 'node:crypto';
import { type AccountState, Topics } from '@msg/contracts';
import { createLogger } from '@msg/logger';
import { type RbmSimulator, startRbmSimulator } from '@msg/rbm-simulator';
import { eventually } from '@msg/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fallbackSmsId } from '../src/fallback/sms-fallback.js';
import { createTtlSweeper } from '../src/fallback/ttl-sweeper.js';
import { startTestRcs, type TestRcs } from './support.js';

const AGENT = 'ttl-agent';
const FALLBACK = { sender: 'Acme', text: 'Your code is 1234' };
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const KEY = {
  client_email: 'ttl-agent@rbm-sim.iam.gserviceaccount.com',
  private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
};

/**
 * TTL expiry against infra/rbm-simulator (the real RBM wire format): a message RBM accepted but
 * has not delivered (`deliver: false` keeps it pending) is revoked when its TTL passes on an
 * injected clock, then falls back to SMS, or fails with TTL_EXPIRED without a fallback; one RBM
 * delivered meanwhile is left alone. The delivery worker's part (sending to RBM, state `sent`) is
 * played here with the service's own RBM client.
 */
describe('TTL sweeper (src/fallback/ttl-sweeper.ts)', () => {
  let sim: RbmSimulator;
  let rcs: TestRcs;
  let acct: AccountState;
  let clock: Date;
  let seq = 0;

  const control = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${sim.url}/control${path}`, {
      method,
      ...(body !== undefined && {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    });
    return {
      status: res.status,
      body: (await res.json().catch(() => null)) as {
        messages: { messageId: string; status: string }[];
      },
    };
  };
  const simStatus = async (messageId: string) =>
    (await control('GET', '/messages')).body.messages.find((m) => m.messageId === messageId)
      ?.status;

  const sweeper = () =>
    createTtlSweeper({
      pool: rcs.pool,
      rbm: rcs.service.rbm,
      smsFallback: rcs.service.smsFallback,
      intervalMs: 1000,
      now: () => clock,
      logger: createLogger({ service: 'ttl-test', level: 'error' }),
    });

  /** Accepts a message and sends it to RBM as the delivery worker would (state `sent`). */
  async function sentOverRcs(body: object, deliver: boolean) {
    seq += 1;
    const recipient = `+4670175${String(seq).padStart(4, '0')}`;
    await control('PUT', `/devices/${encodeURIComponent(recipient)}`, { capable: true, deliver });
    const res = await rcs.send(acct, {
      recipient,
      agent_id: AGENT,
      message: { text: 'Hello' },
      ...body,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const id = res.body.message_id as string;
    const client = await rcs.service.rbm.forAgent(AGENT);
    await client.sendMessage(AGENT, recipient, id, {
      contentMessage: { text: 'Hello' },
      messageTrafficType: 'TRANSACTION',
    });
    await rcs.pool.query(`UPDATE "rcs"."messages" SET "state" = 'sent' WHERE "id" = $1`, [id]);
    return { id, recipient };
  }

  const row = async (id: string) =>
    (
      await rcs.pool.query(
        `SELECT "state", "failure_reason", "expires_at" FROM "rcs"."messages" WHERE "id" = $1`,
        [id],
      )
    ).rows[0];
  const eventOf = async (id: string) => {
    const [entry] = await rcs.publishedAbout(Topics.rcsEvents, id);
    return (entry?.value.payload as { event?: object } | undefined)?.event;
  };

  beforeAll(async () => {
    sim = await startRbmSimulator({
      serviceAccount: { clientEmail: KEY.client_email, key: KEY.private_key },
      deliverDelayMs: 20,
      readDelayMs: 60_000,
    });
    rcs = await startTestRcs({
      perMinute: 10_000,
      env: { RCS_RBM_BASE_URL: sim.url, RCS_RBM_TOKEN_URL: sim.tokenUrl },
    });
    acct = await rcs.publishAccount(rcs.account({ name: 'ttl-account' }));
    await rcs.agent(AGENT, [acct], { credentials: KEY });
    await rcs.smsFallback(acct, true);
  });

  afterAll(async () => {
    await rcs?.stop();
    await sim?.close();
  });

  beforeEach(() => {
    clock = new Date();
  });

  it('when the TTL has not passed, then nothing is revoked', async () => {
    const message = await sentOverRcs({ ttl: 60, sms_fallback: FALLBACK }, false);
    clock = new Date(Date.now() + 59_000);
    expect(await sweeper().sweep()).toEqual([]);
    expect(await simStatus(message.id)).toBe('PENDING');
    expect((await row(message.id)).state).toBe('sent');
  });

  it('when a message with fallback is undelivered at its TTL, then it is revoked at RBM and sent as SMS', async () => {
    const message = await sentOverRcs({ ttl: 60, sms_fallback: FALLBACK }, false);
    clock = new Date(Date.now() + 61_000);
    const outcomes = await sweeper().sweep();
    expect(outcomes).toContain('fallback');
    expect(await simStatus(message.id)).toBe('REVOKED');
    expect(await eventOf(message.id)).toMatchObject({
      event_type: 'sms.out.sent',
      sms_transaction_id: fallbackSmsId(message.id),
    });
    const sms = await eventually(
      async () =>
        rcs.published.find(
          (p) =>
            p.topic === Topics.smsOutbound &&
            (p.value.payload as { to: string }).to === message.recipient,
        ),
      'the fallback SMS',
    );
    expect(sms.value.payload).toMatchObject({ from: 'Acme', text: FALLBACK.text, source: 'rcs' });
    expect(await row(message.id)).toMatchObject({ state: 'fallback_sms', expires_at: null });
    // Swept again: nothing more is due.
    expect(await sweeper().sweep()).toEqual([]);
  });

  it('when a message with fallback but no ttl is undelivered after RCS_SMS_FALLBACK_TTL, then it falls back', async () => {
    const message = await sentOverRcs({ sms_fallback: FALLBACK }, false);
    clock = new Date(Date.now() + 9 * 60_000);
    expect(await sweeper().sweep()).toEqual([]);
    clock = new Date(Date.now() + 10 * 60_000 + 1000);
    expect(await sweeper().sweep()).toEqual(['fallback']);
    expect(await eventOf(message.id)).toMatchObject({ event_type: 'sms.out.sent' });
  });

  it('when a message without fallback is undelivered at its TTL, then it is revoked and fails with TTL_EXPIRED', async () => {
    const message = await sentOverRcs({ ttl: 120 }, false);
    clock = new Date(Date.now() + 121_000);
    expect(await sweeper().sweep()).toEqual(['expired']);
    expect(await simStatus(message.id)).toBe('REVOKED');
    expect(await eventOf(message.id)).toMatchObject({
      event_type: 'rcs.out.failed',
      reason: 'TTL_EXPIRED',
      message_id: message.id,
    });
    expect(await row(message.id)).toMatchObject({ state: 'failed', failure_reason: 'TTL_EXPIRED' });
  });

  it('when RBM delivered the message meanwhile, then revoke finds nothing and no fallback is sent', async () => {
    const message = await sentOverRcs({ ttl: 60, sms_fallback: FALLBACK }, true);
    await eventually(
      async () => ((await simStatus(message.id)) === 'DELIVERED' ? true : undefined),
      'delivered at RBM',
    );
    clock = new Date(Date.now() + 61_000);
    expect(await sweeper().sweep()).toEqual(['delivered']);
    expect(await row(message.id)).toMatchObject({ state: 'sent', expires_at: null });
    await new Promise((r) => setTimeout(r, 300));
    expect(
      rcs.published.filter(
        (p) =>
          p.topic === Topics.rcsEvents &&
          (p.value.payload as { messageId?: string }).messageId === message.id,
      ),
    ).toEqual([]);
  });

  it('when RBM expired the message itself (TTL_EXPIRATION_REVOKED), then revokedByRbm sends the fallback', async () => {
    seq += 1;
    const recipient = `+4670175${String(seq).padStart(4, '0')}`;
    await control('PUT', `/devices/${encodeURIComponent(recipient)}`, {
      capable: true,
      deliver: false,
    });
    const res = await rcs.send(acct, {
      recipient,
      agent_id: AGENT,
      message: { text: 'Hello' },
      ttl: 60,
      sms_fallback: FALLBACK,
    });
    const id = res.body.message_id as string;
    // A worker that handed RBM a short ttl: RBM expires the message before our sweep.
    const client = await rcs.service.rbm.forAgent(AGENT);
    await client.sendMessage(AGENT, recipient, id, {
      contentMessage: { text: 'Hello' },
      messageTrafficType: 'TRANSACTION',
      ttl: '1s',
    });
    await rcs.pool.query(`UPDATE "rcs"."messages" SET "state" = 'sent' WHERE "id" = $1`, [id]);
    await eventually(
      async () => ((await simStatus(id)) === 'EXPIRED' ? true : undefined),
      'expired at RBM',
      5_000,
    );
    expect(await sweeper().revokedByRbm(id)).toBe('fallback');
    expect(await eventOf(id)).toMatchObject({ event_type: 'sms.out.sent' });
    expect(await sweeper().revokedByRbm(id)).toBe('unchanged');
  });

  it('when two sweepers run at once, then each due message is handled once', async () => {
    const messages = await Promise.all([
      sentOverRcs({ ttl: 60, sms_fallback: FALLBACK }, false),
      sentOverRcs({ ttl: 60, sms_fallback: FALLBACK }, false),
      sentOverRcs({ ttl: 60 }, false),
    ]);
    clock = new Date(Date.now() + 61_000);
    const [a, b] = await Promise.all([sweeper().sweep(), sweeper().sweep()]);
    expect([...(a ?? []), ...(b ?? [])].sort()).toEqual(['expired', 'fallback', 'fallback']);
    for (const m of messages) expect(await simStatus(m.id)).toBe('REVOKED');
  });
});
