import { hashSecret } from '@msg/auth';
import {
  type AccountState,
  type EventEnvelope,
  makeEvent,
  OPT_OUT_EVENT,
  optOutKey,
  type SmsOutbound,
  Topics,
} from '@msg/contracts';
import { loadReplypathConfig, startReplypathService } from '@msg/replypath';
import {
  accountState,
  eventually,
  type FakeBilling,
  type LocalServer,
  listenLocal,
  publishAccount,
  startFakeBilling,
  startTestRuntime,
  type TestRuntime,
} from '@msg/testing';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFUSALS } from '../src/access/legacy-access.js';
import { loadReplypathLegacyConfig } from '../src/config.js';
import { startReplypathLegacy } from '../src/service.js';
import { PASSWORD, SENDSMS } from './support.js';

const TOKEN = 'internal-token-shared-by-both';
const ADMIN_TOKEN = 'pool-admin-token-for-tests';
/** One number: a second open message to the same recipient exhausts the pool. */
const POOL_NUMBER = '+46701740605';

let runtime: TestRuntime;
let billing: FakeBilling;
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
  // Plays the admin service's billing API, which the replypath service debits prepaid accounts at.
  billing = await startFakeBilling();
  replypath = await startReplypathService(
    loadReplypathConfig({
      LOG_LEVEL: 'error',
      NODE_ENV: 'test',
      REPLYPATH_INTERNAL_TOKEN: TOKEN,
      REPLYPATH_ADMIN_TOKEN: ADMIN_TOKEN,
      ADMIN_URL: billing.url,
      BILLING_INTERNAL_TOKEN: billing.token,
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
  await billing?.close();
});

/** The legacy query form, with the account's credentials. */
const legacyGet = (acct: AccountState, query: { To: string; Msg: string }) =>
  request(legacy.app).get(SENDSMS).query(query).auth(acct.name, PASSWORD);

/** An account with the 'replypath' permission that both services know. */
async function newAccount(overrides: Partial<AccountState> = {}): Promise<AccountState> {
  const acct = accountState({
    passwordHash: await hashSecret(PASSWORD),
    permissions: ['replypath'],
    ...overrides,
  });
  return publishAccount(
    runtime.bus,
    acct,
    (s) => replypath.accounts.byId(s.id) !== undefined && legacy.accounts.byId(s.id) !== undefined,
  );
}

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

    const sent = await legacyGet(acct, { To: '070-174 06 99', Msg: 'Svara gärna' });
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

    const foreign = await legacyGet(acct, { To: '+4740012345', Msg: 'x' });
    expect(foreign.status).toBe(400);
    expect(foreign.body).toEqual({
      status: '400 Bad Request',
      message: expect.stringMatching(/^query\.To: /),
    });
  });

  it('when a prepaid account with funds on record has an empty balance, then the exact debit refuses it: 401 "prepaid account without funds", nothing sent', async () => {
    // The directory still says funds are available (accounts.v1 lags); the debit is exact.
    const acct = await newAccount({ billing: { mode: 'prepaid', fundsAvailable: true } });
    billing.setBalance(acct.id, 0);

    const res = await legacyGet(acct, { To: '0701740698', Msg: 'Hej' });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Basic realm="Reply-path"');
    expect(res.body).toEqual({ status: '401 Unauthorized', message: REFUSALS.noFunds });
    expect(outbound.filter((e) => e.payload.accountId === acct.id)).toEqual([]);

    billing.setBalance(acct.id, 1);
    const paid = await legacyGet(acct, { To: '0701740698', Msg: 'Hej' });
    expect(paid.status).toBe(200);
    expect(billing.debited(acct.id)).toEqual([paid.body[0].TransactionId]);
  });

  it('when the recipient opted out of the account, then 400 naming query.To and the rule', async () => {
    const acct = await newAccount();
    // An operator's edit, as admin publishes it on optouts.v1.
    const msisdn = '+46701740697';
    const change = {
      accountId: acct.id,
      msisdn,
      optedOut: true,
      source: 'operator' as const,
      at: new Date().toISOString(),
    };
    await runtime.bus.publish(Topics.optOuts, [
      { key: optOutKey(acct.id, msisdn), value: makeEvent(OPT_OUT_EVENT, change) },
    ]);
    await eventually(async () => {
      const { rows } = await runtime.pool.query(
        'SELECT 1 FROM "replypath"."opt_out" WHERE "account_id" = $1 AND "msisdn" = $2 AND "opted_out"',
        [acct.id, msisdn],
      );
      return rows.length > 0 || undefined;
    }, "the replypath service's opt-out replica");

    const res = await legacyGet(acct, { To: '0701740697', Msg: 'Hej' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      status: '400 Bad Request',
      message: expect.stringMatching(/^query\.To: .*opted out/),
    });
  });
});
