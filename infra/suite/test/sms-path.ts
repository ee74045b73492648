import got, { type Got } from 'got';

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

/** Polls `check` until it returns true or `timeoutMs` passes; false on timeout (assert after). */
export async function waitFor(check: () => Promise<boolean>, timeoutMs: number, everyMs = 250) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return true;
    if (Date.now() > deadline) return false;
    await sleep(everyMs);
  }
}

/** Distinct destination per message, so the SMSC tells them apart: +467010<test><4 digits>. */
export const destination = (test: number, i: number) =>
  `+467010${test}${String(i).padStart(4, '0')}`;

/** How many times each destination reached the SMSC. */
export const byDestination = (submits: Submit[]) => {
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

/** GET /v1/sms/{id} of each message through `gateway` (a got instance with the account's auth). */
export async function statuses(gateway: Got, ids: Iterable<string>): Promise<Map<string, Status>> {
  const answers = new Map<string, Status>();
  await Promise.all(
    [...ids].map(async (id) => {
      const res = await gateway.get<Status>(`v1/sms/${id}`);
      if (res.statusCode === 200) answers.set(id, res.body);
    }),
  );
  return answers;
}

export const deliveredCount = (all: Map<string, Status>) =>
  [...all.values()].filter((s) => s.status === 'delivered').length;
