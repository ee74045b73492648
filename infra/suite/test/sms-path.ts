import got, { type Got } from 'got';
import { onTestFailed } from 'vitest';
import type { SmsPlatform } from './platform.js';

/** What the SMSC simulator recorded of one submit_sm (GET /submits). */
export interface Submit {
  messageId: string;
  destinationAddr: string;
  receivedAt: string;
}

/** The part of GET /v1/sms/{id} the fault tests count. */
export interface Status {
  status: string;
  smscMessageIds: string[];
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Messages per fault test: SMS_FAULT_MESSAGES when set (e.g. 10000 to prove a fast path loses
 * nothing at scale), else the file's default, what CI affords in about 2-3 minutes per test on
 * today's path (~130 submits/s). Destinations have five digits per test: at most 99,999.
 */
export function faultMessages(defaultCount: number): number {
  const raw = process.env.SMS_FAULT_MESSAGES;
  if (raw === undefined || raw === '') return defaultCount;
  const count = Number(raw);
  if (!Number.isInteger(count) || count < 20 || count > 99_999) {
    throw new Error(`SMS_FAULT_MESSAGES: expected an integer from 20 to 99999, got ${raw}`);
  }
  return count;
}

/**
 * How long `count` messages may take to pass a step (all sent, all at the SMSC, all delivered):
 * a minute plus the count at a floor of 20 per second — far below today's ~130/s, so a slow
 * shared machine does not fail the test, yet a run that stalls gives up (10,000: about 9 min).
 */
export const allowFor = (count: number) => 60_000 + Math.ceil((count * 1000) / 20);

/** Polls `check` until it returns true or `timeoutMs` passes; false on timeout (assert after). */
export async function waitFor(check: () => Promise<boolean>, timeoutMs: number, everyMs = 250) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return true;
    if (Date.now() > deadline) return false;
    await sleep(everyMs);
  }
}

/**
 * Distinct destination per message, so the SMSC tells them apart: +46701<test><5 digits>, a
 * Swedish mobile number for each of up to 100,000 messages of tests 0-9.
 */
export const destination = (test: number, i: number) =>
  `+46701${test}${String(i).padStart(5, '0')}`;

/** What the SMSC sees of test `test`'s destinations: the start of destinationAddr (no +). */
export const destinationsOf = (test: number) => `46701${test}`;

/** How many times each destination reached the SMSC. */
export const byDestination = (submits: Iterable<Submit>) => {
  const counts = new Map<string, number>();
  for (const s of submits) counts.set(s.destinationAddr, (counts.get(s.destinationAddr) ?? 0) + 1);
  return counts;
};

/** The status code of `url`/readyz, undefined when nothing answers. */
export async function readiness(url: string): Promise<number | undefined> {
  const res = await got(`${url}/readyz`, {
    throwHttpErrors: false,
    retry: { limit: 0 },
    timeout: { request: 2000 },
  }).catch(() => undefined);
  return res?.statusCode;
}

/** Runs `work` over `items`, at most `limit` at once. */
async function eachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** GET /v1/sms/{id} of each message through `gateway` (a got instance with the account's auth). */
export async function statuses(gateway: Got, ids: Iterable<string>): Promise<Map<string, Status>> {
  const answers = new Map<string, Status>();
  // Bounded: thousands of lookups at once would time out against a loaded gateway.
  await eachLimited([...ids], 32, async (id) => {
    const res = await gateway.get<Status>(`v1/sms/${id}`).catch(() => undefined);
    if (res?.statusCode === 200) answers.set(id, res.body);
  });
  return answers;
}

const FINAL_STATES = new Set(['delivered', 'failed', 'expired']);

/**
 * The statuses of a fixed set of messages, asked again only for those not yet final: waiting for
 * 10,000 messages to be delivered must not cost 10,000 lookups per poll.
 */
export function statusTracker(gateway: Got, ids: Iterable<string>) {
  const known = new Map<string, Status>();
  const all = [...ids];
  return {
    async refresh(): Promise<Map<string, Status>> {
      const open = all.filter((id) => !FINAL_STATES.has(known.get(id)?.status ?? ''));
      for (const [id, status] of await statuses(gateway, open)) known.set(id, status);
      return known;
    },
  };
}

export const deliveredCount = (all: Map<string, Status>) =>
  [...all.values()].filter((s) => s.status === 'delivered').length;

/**
 * Every submit the SMSC simulator recorded, read incrementally (GET /submits?from=n) and kept by
 * SMSC message id, across simulator restarts: a restarted instance numbers from 0 again and has
 * a new id prefix, and is then read from its start. Submits an instance took and lost with its
 * death between two polls are not seen here (the message's smscMessageIds tell them).
 */
export function smscRecorder(smsc: Got) {
  const seen = new Map<string, Submit>();
  let from = 0;
  let prefix: string | undefined;
  const read = async (start: number) => {
    const res = await smsc.get<Submit[]>('submits', { searchParams: { from: start } });
    return { submits: res.body, recorded: Number(res.headers['x-submits-recorded']) };
  };
  return {
    /** Reads what is new; throws when the simulator does not answer. */
    async poll(): Promise<Map<string, Submit>> {
      let page = await read(from);
      const first = page.submits[0];
      const restarted =
        page.recorded < from || (first && prefix && !first.messageId.startsWith(prefix));
      if (restarted) page = await read(0);
      for (const submit of page.submits) seen.set(submit.messageId, submit);
      prefix = page.submits.at(-1)?.messageId.slice(0, 6) ?? (restarted ? undefined : prefix);
      from = page.recorded;
      return seen;
    },
    /** Everything seen so far. */
    seen: () => seen,
    /** The id prefix of the instance read last (message ids are prefix + counter). */
    prefix: () => prefix,
  };
}

/** The SMSC simulator's control API as a got instance. */
export const smscControl = (platform: SmsPlatform) =>
  got.extend({
    prefixUrl: platform.smscControlUrl,
    responseType: 'json',
    retry: { limit: 0 },
    timeout: { request: 10_000 },
  });

/**
 * Creates an account allowed to send SMS at `smsThroughputPerSecond`, its request rate high, and
 * answers a got instance on the gateway with its credentials.
 */
export async function smsAccount(
  platform: SmsPlatform,
  account: { name: string; password: string },
  smsThroughputPerSecond: number,
): Promise<Got> {
  const created = await got.post(`${platform.adminUrl}/internal/v1/accounts`, {
    headers: { authorization: `Bearer ${platform.adminToken}` },
    json: {
      name: account.name,
      password: account.password,
      permissions: ['sms'],
      rateLimit: { perSecond: 1000, burst: 1000 },
      smsThroughputPerSecond,
    },
    throwHttpErrors: false,
  });
  if (created.statusCode !== 201) throw new Error(`account: ${created.statusCode} ${created.body}`);
  return got.extend({
    prefixUrl: platform.gatewayUrl,
    username: account.name,
    password: account.password,
    throwHttpErrors: false,
    retry: { limit: 0 },
    responseType: 'json',
    timeout: { request: 10_000 },
  });
}

/**
 * Sends one message as soon as the account has reached the sms service (over accounts.v1) and
 * answers its id; `until` then says when it has gone all the way round.
 */
export async function warmUp(
  platform: SmsPlatform,
  gateway: Got,
  json: Record<string, unknown>,
  until: (messageId: string) => Promise<boolean>,
): Promise<void> {
  let messageId = '';
  const accepted = await waitFor(async () => {
    const res = await gateway.post<{ messageId: string }>('v1/sms/send', { json });
    messageId = res.body.messageId;
    return res.statusCode === 202;
  }, 60_000);
  if (!accepted) throw new Error(`no send accepted:\n${platform.logTail()}`);
  if (!(await waitFor(() => until(messageId), 60_000))) {
    throw new Error(`warm-up message not delivered:\n${platform.logTail()}`);
  }
}

/** On a failed test, the tail of every process's log. */
export function dumpLogsOnFailure(platform: SmsPlatform | undefined) {
  onTestFailed(() => {
    process.stderr.write(`--- process logs (tail) ---\n${platform?.logTail(12_000)}\n`);
  });
}
