import { gzipSync } from 'node:zlib';
import { type CallbackReceiver, eventually, startCallbackReceiver } from '@msg/testing';
import got, { type Got } from 'got';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedRcsAgent } from '../src/rcs-agent.js';
import type { RunningSuite } from '../src/suite.js';
import { createGatewayAccount, type GatewayAccount, startEmbedded } from './platform.js';
import { replypathAccount } from './replypath-account.js';
import { smsAccount } from './sms-account.js';

/**
 * Issue 24 part 1: every SMS sender runs through one table of cases on the embedded defaults —
 * the SMS API, batches, reply-path, the legacy reply-path interface (through reply-path's
 * internal API) and the RCS SMS fallback. Each refuses in its own terms (status, code, field; at
 * request time or when it processes the message), and what is refused is neither charged (the
 * admin balance of a prepaid account) nor sent (the SMSC simulator receives no submit_sm for the
 * recipient); a good message is sent and charged its parts. Each sender has a prepaid account of
 * its own with a balance of CREDITS, and each case a recipient of its own.
 */

type Kind = 'opted out' | 'insufficient funds' | 'bad sender' | 'long text' | 'good';

interface Case {
  kind: Kind;
  when: string;
  expected: string;
  sender: string;
  text: string;
  /** Credits it costs: its parts when sent, else 0. */
  charge: number;
}

/** What a sender's request ended in: the answer, and for an accepted one its outcome. */
interface Outcome {
  status: number;
  body: unknown;
  /** Batch: the summary and the recipient's delta; RCS: the message's final event. */
  final?: Record<string, unknown>;
}

interface Sender {
  name: string;
  setUp(): Promise<void>;
  /** Sends the case's message to `to`; resolves once the interface has decided it. */
  send(c: Case, to: string): Promise<Outcome>;
  /** Asserts that `outcome` is the interface's own answer to `c` (for 'good', an acceptance). */
  refusedHow(outcome: Outcome, c: Case): void;
  /** The account's prepaid balance now. */
  balance(): Promise<number>;
  /** Cases the interface cannot express, and why. */
  skips?: Partial<Record<Kind, string>>;
}

const SENDER = 'ACME';
const CREDITS = 5;
const cases: Case[] = [
  {
    kind: 'opted out',
    when: 'the recipient opted out (prepaid, funded)',
    expected: 'refused, nothing charged, nothing sent',
    sender: SENDER,
    text: 'Spring offer',
    charge: 0,
  },
  {
    kind: 'insufficient funds',
    when: `a 6-part text meets a balance of ${CREDITS}`,
    expected: 'refused, nothing charged, nothing sent',
    sender: SENDER,
    text: 'a'.repeat(153 * 5 + 1),
    charge: 0,
  },
  {
    kind: 'bad sender',
    when: 'the sender is one the account is not registered for (BANKID)',
    expected: 'refused naming the sender field, nothing charged, nothing sent',
    sender: 'BANKID',
    text: 'Din BankID har spärrats',
    charge: 0,
  },
  {
    kind: 'long text',
    when: 'the text needs 11 parts',
    expected: 'refused naming the text field, nothing charged, nothing sent',
    sender: SENDER,
    text: 'a'.repeat(1531),
    charge: 0,
  },
  {
    kind: 'good',
    when: 'a good 2-part message is sent',
    expected: 'the SMSC gets it and 2 credits are charged',
    sender: SENDER,
    text: 'x'.repeat(161),
    charge: 2,
  },
];
const OPTED_OUT = cases.findIndex((c) => c.kind === 'opted out');

/**
 * A distinct Swedish mobile number per sender and case, ending in 999: the RBM simulator's
 * phones without RCS, so an RCS message to it falls back to SMS.
 */
const recipient = (sender: number, kase: number) => `+467035${sender}${kase}999`;

let platform: RunningSuite;
let admin: Got;
let smsc: Got;
/** What the senders' set-ups started, closed after the platform's tests. */
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  platform = await startEmbedded();
  admin = got.extend({
    prefixUrl: `${platform.adminUrl}/internal/v1/accounts`,
    headers: { authorization: `Bearer ${platform.adminToken}` },
    responseType: 'json',
  });
  smsc = got.extend({ prefixUrl: platform.smscControlUrl ?? '', responseType: 'json' });
}, 180_000);

afterAll(async () => {
  for (const close of closers) await close();
  await platform?.stop();
}, 60_000);

const balanceOf = async (name: string) =>
  (await admin.get(name).json<{ billing: { balance: number } }>()).billing.balance;
const topUp = (name: string) => admin.post(`${name}/top-ups`, { json: { credits: CREDITS } });
const optOut = (name: string, msisdn: string) => admin.put(`${name}/opt-outs/${msisdn}`);
const apiKeyOf = async (name: string) =>
  (await admin.post(`${name}/api-keys`).json<{ apiKey: string }>()).apiKey;

/**
 * A new prepaid account (balance 0) with `permissions`, registered as SENDER, from which
 * sender `index`'s opted-out recipient has opted out; answers its name.
 */
async function optedOutAccount(prefix: string, permissions: string[], index: number) {
  const { name } = await createGatewayAccount(platform, prefix, permissions, {
    billingMode: 'prepaid',
    senderIds: [SENDER],
  });
  await optOut(name, recipient(index, OPTED_OUT));
  return name;
}

const submitsTo = async (to: string) =>
  (await smsc.get<{ destinationAddr: string }[]>('submits')).body.filter(
    (s) => s.destinationAddr === to.slice(1),
  );

/**
 * Waits until `probe` (a send to the opted-out recipient while the balance is 0, which charges
 * nothing either way) is refused as opted out: the opt-out has reached the sending service.
 */
const untilOptedOut = (probe: () => Promise<number>, optedOutStatus = 400) =>
  eventually(
    async () => ((await probe()) === optedOutStatus ? true : undefined),
    'the opt-out at the sending service',
    30_000,
    100,
  );

/** The status and body an interface answers each kind of case with, at request time. */
type Answers = Partial<Record<Kind, [status: number, body: object]>>;
function expectAnswer({ status, body }: Outcome, answers: Answers, kind: Kind) {
  const expected = answers[kind];
  if (!expected) throw new Error(`no answer expected for ${kind}`);
  expect(status, JSON.stringify(body)).toBe(expected[0]);
  expect(body).toMatchObject(expected[1]);
}

const SMS_ANSWERS: Answers = {
  'opted out': [
    400,
    {
      code: 'RECIPIENT_OPTED_OUT',
      details: [expect.objectContaining({ loc: ['body', 'to'], type: 'opted_out' })],
    },
  ],
  'insufficient funds': [402, { code: 'INSUFFICIENT_FUNDS' }],
  'bad sender': [
    400,
    {
      code: 'VALIDATION_ERROR',
      details: [expect.objectContaining({ loc: ['body', 'from'], type: 'not_registered' })],
    },
  ],
  'long text': [
    400,
    {
      code: 'VALIDATION_ERROR',
      details: [expect.objectContaining({ loc: ['body', 'message'], type: 'too_many_parts' })],
    },
  ],
  good: [202, { messageId: expect.any(String) }],
};

const smsApi = (index: number): Sender => {
  let account: GatewayAccount;
  const post = (to: string, from: string, message: string) =>
    account.gateway.post('v1/sms/send', { json: { to, from, message } });
  return {
    name: 'SMS API (POST /v1/sms/send)',
    async setUp() {
      account = await smsAccount(platform, 'contractsms', {
        billingMode: 'prepaid',
        senderIds: [SENDER],
      });
      const optedOut = recipient(index, OPTED_OUT);
      await optOut(account.name, optedOut);
      await untilOptedOut(async () => (await post(optedOut, SENDER, 'x')).statusCode);
      await topUp(account.name);
    },
    send: async (c, to) => {
      const res = await post(to, c.sender, c.text);
      return { status: res.statusCode, body: res.body };
    },
    refusedHow: (outcome, c) => expectAnswer(outcome, SMS_ANSWERS, c.kind),
    balance: () => balanceOf(account.name),
  };
};

/** Reply-path's 7.2 errors: `details` is one object, not a list. */
const REPLYPATH_ANSWERS: Answers = {
  'opted out': [
    400,
    { code: 'RECIPIENT_OPTED_OUT', details: { loc: ['body', 'To'], type: 'opted_out' } },
  ],
  // 403, not 402: section 7.2 of the specification lists no 402.
  'insufficient funds': [403, { code: 'INSUFFICIENT_FUNDS' }],
  // The document caps Msg at 1530 characters, so the validator refuses 1531 before the parts
  // are counted: maxLength, not too_many_parts.
  'long text': [
    400,
    { code: 'VALIDATION_ERROR', details: { loc: ['body', 'Msg'], type: 'maxLength' } },
  ],
  good: [200, { TransactionId: expect.any(String) }],
};

/**
 * A prepaid replypath account from which sender `index`'s opted-out recipient has opted out
 * (known to the replypath service: a dry run, refused the same way and never charged, says so),
 * topped up.
 */
async function fundedReplypathAccount(prefix: string, index: number) {
  const account = await replypathAccount(platform, prefix, { billingMode: 'prepaid' });
  const optedOut = recipient(index, OPTED_OUT);
  await optOut(account.name, optedOut);
  await untilOptedOut(
    async () =>
      (
        await account.gateway.post('replypath/v1/sendsms?instantiate=false', {
          json: { To: optedOut, Msg: 'x' },
        })
      ).statusCode,
  );
  await topUp(account.name);
  return account;
}

const replyPath = (index: number): Sender => {
  let account: GatewayAccount;
  return {
    name: 'reply-path (POST /replypath/v1/sendsms)',
    async setUp() {
      account = await fundedReplypathAccount('contractrp', index);
    },
    send: async (c, to) => {
      const res = await account.gateway.post('replypath/v1/sendsms', {
        json: { To: to, Msg: c.text },
      });
      return { status: res.statusCode, body: res.body };
    },
    refusedHow: (outcome, c) => expectAnswer(outcome, REPLYPATH_ANSWERS, c.kind),
    balance: () => balanceOf(account.name),
    skips: {
      'bad sender': 'reply-path has no customer-chosen sender: the service allocates a pool number',
    },
  };
};

/** The legacy interface's errors: the status line and a message naming the field. */
const LEGACY_ANSWERS: Answers = {
  'opted out': [
    400,
    { status: '400 Bad Request', message: expect.stringMatching(/^query\.To: .*opted out/) },
  ],
  // Rule 5.3: a prepaid account without funds is refused as the account, 401.
  'insufficient funds': [
    401,
    { status: '401 Unauthorized', message: 'prepaid account without funds: top up the account' },
  ],
  'long text': [
    400,
    { status: '400 Bad Request', message: expect.stringMatching(/^query\.Msg: /) },
  ],
  good: [200, [{ DestinationAddress: expect.any(String), TransactionId: expect.any(String) }]],
};

/** The deprecated interface in front of reply-path's internal API (GET /v1/replypath/sendsms). */
const replyPathLegacy = (index: number): Sender => {
  let account: GatewayAccount;
  const get = (to: string, text: string) =>
    account.gateway.get('v1/replypath/sendsms', { searchParams: { To: to, Msg: text } });
  return {
    name: 'legacy reply-path (GET /v1/replypath/sendsms)',
    async setUp() {
      account = await fundedReplypathAccount('contractrpl', index);
      // The legacy service refuses an account its directory knows as unfunded (401) until the
      // top-up reaches it; then a recipient reply-path refuses is a 400.
      await eventually(
        async () => ((await get('+4791234567', 'x')).statusCode === 400 ? true : undefined),
        'the funded account at the legacy service',
        30_000,
        100,
      );
    },
    send: async (c, to) => {
      const res = await get(to, c.text);
      return { status: res.statusCode, body: res.body };
    },
    refusedHow: (outcome, c) => expectAnswer(outcome, LEGACY_ANSWERS, c.kind),
    balance: () => balanceOf(account.name),
    skips: { 'bad sender': 'the legacy interface has no customer-chosen sender either' },
  };
};

interface BatchSummary {
  status: string;
  total_messages: number;
  submitted_messages: number;
  failed_messages: number;
  total_parts: number;
}

const batches = (index: number): Sender => {
  let name = '';
  let api: Got;
  let lastCreate = 0;
  const create = async (c: Case, to: string) => {
    // One create per second per account.
    await new Promise((r) => setTimeout(r, Math.max(0, lastCreate + 1_100 - Date.now())));
    lastCreate = Date.now();
    const batch = {
      sms_config: { sender_id: c.sender, message_template: c.text },
      recipients: [{ phone_number: to }],
    };
    return api.post<{ id: string }>('v1/batches', {
      body: gzipSync(JSON.stringify({ batch })),
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
  };
  return {
    name: 'batches (POST /v1/batches)',
    async setUp() {
      name = await optedOutAccount('contractbatch', ['batch_sms'], index);
      const apiKey = await apiKeyOf(name);
      const token = await eventually(
        async () => {
          const res = await got.post<{ access_token: string }>(
            `${platform.gatewayUrl}/v1/oauth/token`,
            {
              json: { client_id: name, client_secret: apiKey, grant_type: 'client_credentials' },
              responseType: 'json',
              throwHttpErrors: false,
            },
          );
          return res.statusCode === 200 ? res.body.access_token : undefined;
        },
        'a batch token',
        30_000,
        100,
      );
      api = got.extend({
        prefixUrl: platform.gatewayUrl,
        headers: { authorization: `Bearer ${token}` },
        responseType: 'json',
        throwHttpErrors: false,
        retry: { limit: 0 },
      });
      await topUp(name);
    },
    async send(c, to) {
      const res = await create(c, to);
      if (res.statusCode !== 202) return { status: res.statusCode, body: res.body };
      const { id } = res.body;
      const final = await vi.waitFor(
        async () => {
          const polled = await api.get<{
            batch_status_summary: BatchSummary;
            submitted_messages_delta: { phone_number: string; submission_status: string }[];
          }>(`v1/batches/${id}/poll_with_delta`, { searchParams: { last_sequence_id: 0 } });
          const summary = polled.body.batch_status_summary;
          if (summary.status !== 'completed' && summary.status !== 'failed') {
            throw new Error(JSON.stringify(summary));
          }
          return { summary, delta: polled.body.submitted_messages_delta };
        },
        { timeout: 60_000, interval: 250 },
      );
      return { status: res.statusCode, body: res.body, final };
    },
    refusedHow({ status, body, final }, c) {
      if (c.kind === 'bad sender') {
        expect(status, JSON.stringify(body)).toBe(400);
        expect(body).toMatchObject({
          code: 'VALIDATION_ERROR',
          details: [
            expect.objectContaining({
              loc: ['body', 'batch', 'sms_config', 'sender_id'],
              type: 'not_registered',
            }),
          ],
        });
        return;
      }
      // Everything else is accepted and decided per recipient when the batch is processed. The
      // recipient's reason (opted_out, insufficient_funds, too_long) is stored but not part of
      // the interface: a delta says FAILED only.
      expect(status, JSON.stringify(body)).toBe(202);
      const sent = c.kind === 'good';
      expect(final).toMatchObject({
        summary: {
          status: sent ? 'completed' : 'failed',
          total_messages: 1,
          submitted_messages: sent ? 1 : 0,
          failed_messages: sent ? 0 : 1,
          total_parts: sent ? c.charge : 0,
        },
        delta: [{ submission_status: sent ? 'SUBMITTED' : 'FAILED' }],
      });
    },
    balance: () => balanceOf(name),
  };
};

type RcsEvent = Record<string, unknown> & { event_type: string; message_id?: string };

const rcsFallback = (index: number): Sender => {
  let name = '';
  let api: Got;
  let receiver: CallbackReceiver;
  const events = () => receiver.received.map((r) => JSON.parse(r.body) as RcsEvent);
  return {
    name: 'RCS SMS fallback (POST /rcs/v1/messages, sms_fallback, a phone without RCS)',
    async setUp() {
      name = await optedOutAccount('contractrcs', ['rcs'], index);
      const rcsUrl = platform.serviceUrls.rcs ?? '';
      // The demo agent (with the simulator's credentials) may send for this account too.
      await seedRcsAgent(rcsUrl, platform.adminToken, platform.demoRcsAgentId, name);
      await got.patch(`${rcsUrl}/internal/v1/account-settings/${name}`, {
        headers: { authorization: `Bearer ${platform.adminToken}` },
        json: { sms_fallback: true },
      });
      api = got.extend({
        prefixUrl: platform.gatewayUrl,
        headers: { 'x-api-key': await apiKeyOf(name), 'x-client-id': name },
        responseType: 'json',
        throwHttpErrors: false,
        retry: { limit: 0 },
      });
      receiver = await startCallbackReceiver();
      closers.push(() => receiver.close());
      // The gateway learns of the new key over the bus: 401 until it has.
      const webhook = await eventually(
        async () => {
          const res = await api.post('v1/webhooks', {
            json: { agent_id: platform.demoRcsAgentId, webhook_url: `${receiver.url}/rcs-events` },
          });
          return res.statusCode === 401 ? undefined : res;
        },
        'the API key at the gateway',
        30_000,
        100,
      );
      expect(webhook.statusCode, JSON.stringify(webhook.body)).toBe(201);
      await topUp(name);
    },
    async send(c, to) {
      const res = await api.post<{ message_id: string }>('rcs/v1/messages', {
        json: {
          recipient: to,
          agent_id: platform.demoRcsAgentId,
          message: { text: 'Hello' },
          sms_fallback: { sender: c.sender, text: c.text },
        },
      });
      if (res.statusCode !== 202) return { status: res.statusCode, body: res.body };
      const final = await vi.waitFor(
        () => {
          const found = events().find(
            (e) =>
              e.message_id === res.body.message_id &&
              (e.event_type === 'rcs.out.failed' || e.event_type === 'sms.out.sent'),
          );
          if (!found) throw new Error(`no outcome yet of ${res.body.message_id}`);
          return found;
        },
        { timeout: 60_000, interval: 100 },
      );
      return { status: res.statusCode, body: res.body, final };
    },
    refusedHow({ status, body, final }, c) {
      const atRequest: Partial<Record<Kind, [string, string]>> = {
        'bad sender': ['sender', 'not_registered'],
        // The document caps text at 1530 characters: maxLength before the parts are counted.
        'long text': ['text', 'maxLength'],
      };
      const field = atRequest[c.kind];
      if (field) {
        expect(status, JSON.stringify(body)).toBe(400);
        expect(body).toMatchObject({
          details: {
            errors: [
              expect.objectContaining({ loc: ['body', 'sms_fallback', field[0]], type: field[1] }),
            ],
          },
        });
        return;
      }
      // Accepted; the SMS is decided when the message cannot go over RCS.
      expect(status, JSON.stringify(body)).toBe(202);
      expect(final).toMatchObject(
        c.kind === 'good'
          ? { event_type: 'sms.out.sent', sms_transaction_id: expect.any(String) }
          : { event_type: 'rcs.out.failed', reason: 'SMS_FALLBACK_REJECTED' },
      );
    },
    balance: () => balanceOf(name),
  };
};

const senders: Sender[] = [smsApi, batches, replyPath, replyPathLegacy, rcsFallback].map(
  (make, i) => make(i),
);

describe.each(senders.map((s) => [s.name, s] as const))('%s', (_name, sender) => {
  const index = senders.indexOf(sender);
  beforeAll(() => sender.setUp(), 120_000);

  for (const [kind, why] of Object.entries(sender.skips ?? {})) {
    it.skip(`when the case is ${kind}, then it does not apply: ${why}`, () => {});
  }

  it.each(
    cases.filter((c) => !sender.skips?.[c.kind]).map((c) => [c.when, c.expected, c] as const),
  )(
    'when %s, then %s',
    async (_when, _expected, c) => {
      const to = recipient(index, cases.indexOf(c));
      const before = await sender.balance();
      sender.refusedHow(await sender.send(c, to), c);
      if (c.kind === 'good') {
        // One submit_sm per part.
        await vi.waitFor(async () => expect(await submitsTo(to)).toHaveLength(c.charge), {
          timeout: 30_000,
          interval: 100,
        });
        // The account's SMS reach the SMSC in order: had a refused one been queued, earlier, it
        // would be there by now.
        const refused = cases.filter((r) => r.kind !== 'good' && !sender.skips?.[r.kind]);
        for (const r of refused) {
          expect(await submitsTo(recipient(index, cases.indexOf(r))), r.kind).toEqual([]);
        }
      } else {
        expect(await submitsTo(to)).toEqual([]);
      }
      expect(before - (await sender.balance())).toBe(c.charge);
    },
    120_000,
  );
});
