import { hashSecret } from '@msg/auth';
import { type EventEnvelope, type SmsOutbound, Topics } from '@msg/contracts';
import { loadReplypathConfig, startReplypathService } from '@msg/replypath';
import {
  accountState,
  eventually,
  type LocalServer,
  listenLocal,
  publishAccount,
  startTestRuntime,
  type TestRuntime,
} from '@msg/testing';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadReplypathLegacyConfig } from '../src/config.js';
import { startReplypathLegacy } from '../src/service.js';
import { PASSWORD, SENDSMS } from './support.js';

const TOKEN = 'internal-token-shared-by-both';
const ADMIN_TOKEN = 'pool-admin-token-for-tests';
/** One number: a second open message to the same recipient exhausts the pool. */
const POOL_NUMBER = '+46701740605';

let runtime: TestRuntime;
let replypath: Awaited<ReturnType<typeof startReplypathService>>;
let replypathServer: LocalServer;
let legacy: Awaited<ReturnType<typeof startReplypathLegacy>>;
const outbound: EventEnvelope<SmsOutbound>[] = [];

/**
 * The legacy service against the REAL replypath service (rp-core), both on one embedded
 * database and the in-process bus as in the embedded suite, the replypath service listening on
 * 127.0.0.1 for the internal API.
 */
beforeAll(async () => {
  runtime = await startTestRuntime({ service: 'replypath-legacy' });
  replypath = await startReplypathService(
    loadReplypathConfig({
      LOG_LEVEL: 'error',
      NODE_ENV: 'test',
      REPLYPATH_INTERNAL_TOKEN: TOKEN,
      REPLYPATH_ADMIN_TOKEN: ADMIN_TOKEN,
    }),
    runtime,
  );
  replypathServer = await listenLocal(replypath.app);
  legacy = await startReplypathLegacy(
    loadReplypathLegacyConfig({
      LOG_LEVEL: 'error',
      NODE_ENV: 'test',
      REPLYPATH_URL: replypathServer.url,
      REPLYPATH_INTERNAL_TOKEN: TOKEN,
    }),
    runtime,
  );
  await runtime.bus.subscribe({
    groupId: 'replypath-legacy-test-recorder',
    topics: [Topics.smsOutbound],
    fromBeginning: true,
    handler: async ({ value }) => {
      outbound.push(value as EventEnvelope<SmsOutbound>);
    },
  });
  const seeded = await request(replypath.app)
    .post('/internal/v1/pool/numbers')
    .set('authorization', `Bearer ${ADMIN_TOKEN}`)
    .send({ numbers: [POOL_NUMBER] });
  if (seeded.status !== 200) throw new Error(`pool not seeded: ${seeded.status} ${seeded.text}`);
}, 90_000);

afterAll(async () => {
  await legacy?.stop();
  await replypathServer?.close();
  await replypath?.stop();
  await runtime?.stop();
});

describe('against the real replypath service', () => {
  it('when a legacy send succeeds, then one reservation-backed SMS goes out from the pool number with source replypath-legacy; a second open message to the same recipient is a 429; a non-Swedish recipient a 400 naming query.To', async () => {
    const acct = accountState({
      passwordHash: await hashSecret(PASSWORD),
      permissions: ['replypath'],
    });
    await publishAccount(
      runtime.bus,
      acct,
      (s) =>
        replypath.accounts.byId(s.id) !== undefined && legacy.accounts.byId(s.id) !== undefined,
    );

    const sent = await request(legacy.app)
      .get(SENDSMS)
      .query({ To: '070-174 06 99', Msg: 'Svara gärna' })
      .auth(acct.name, PASSWORD);
    expect(sent.status).toBe(200);
    expect(sent.headers.deprecation).toBe('@1795478400');
    expect(sent.body).toEqual([
      { DestinationAddress: '+46701740699', TransactionId: expect.any(String) },
    ]);
    const transactionId = sent.body[0].TransactionId as string;
    const event = await eventually(
      async () => outbound.find((e) => e.payload.messageId === transactionId),
      'the outbound event of the legacy send',
    );
    expect(event.payload).toMatchObject({
      accountId: acct.id,
      source: 'replypath-legacy',
      from: POOL_NUMBER,
      to: '+46701740699',
      text: 'Svara gärna',
      deliveryReport: false,
    });

    const exhausted = await request(legacy.app)
      .post(SENDSMS)
      .send({ To: '0701740699', Msg: 'again' })
      .auth(acct.name, PASSWORD);
    expect(exhausted.status).toBe(429);
    expect(Number(exhausted.headers['retry-after'])).toBeGreaterThan(0);
    expect(exhausted.body.status).toBe('429 Too Many Requests');

    const foreign = await request(legacy.app)
      .get(SENDSMS)
      .query({ To: '+4740012345', Msg: 'x' })
      .auth(acct.name, PASSWORD);
    expect(foreign.status).toBe(400);
    expect(foreign.body).toEqual({
      status: '400 Bad Request',
      message: expect.stringMatching(/^query\.To: /),
    });
  });
});
