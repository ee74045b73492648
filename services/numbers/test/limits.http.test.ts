import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNumbers, type TestNumbers } from './support.js';

let t: TestNumbers;
beforeAll(async () => {
  t = await startTestNumbers();
}, 60_000);
afterAll(async () => t?.stop());

const NUMBER = '/v1/numbers/46701234567';

async function used(accountId: string): Promise<number> {
  const { rows } = await t.pool.query<{ count: number }>(
    'SELECT count FROM numbers.lookup_count WHERE account_id = $1',
    [accountId],
  );
  return rows[0]?.count ?? 0;
}

describe('monthly quota', () => {
  it('when the quota is used up, then 429 quota-exceeded with Retry-After until the first of next month UTC', async () => {
    t.clock.set('2026-11-30T23:59:00.000Z');
    try {
      const acct = await t.publishAccount(t.account({ numbersMonthlyQuota: 2 }));
      expect((await t.get(acct, NUMBER)).status).toBe(200);
      expect((await t.get(acct, '/v1/numbers/0701234567')).status).toBe(200);
      const res = await t.get(acct, NUMBER);
      expect(res.status).toBe(429);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.type).toBe('https://problems.example.test/numbers/quota-exceeded');
      expect(res.headers['retry-after']).toBe('60');
      expect(await used(acct.id)).toBe(2);
      // A new month, a new quota.
      t.clock.set('2026-12-01T00:00:01.000Z');
      expect((await t.get(acct, NUMBER)).status).toBe(200);
    } finally {
      t.clock.set('2026-11-21T12:00:00.000Z');
    }
  });

  it('when a view answers 304, then it counts as a lookup', async () => {
    const acct = await t.publishAccount(t.account({ numbersMonthlyQuota: 2 }));
    const first = await t.get(acct, NUMBER);
    const notModified = await t.get(acct, NUMBER).set('If-None-Match', first.headers.etag ?? '');
    expect(notModified.status).toBe(304);
    expect(await used(acct.id)).toBe(2);
    expect((await t.get(acct, NUMBER)).status).toBe(429);
  });

  it('when the quota is null, then lookups are counted but never refused', async () => {
    const acct = await t.publishAccount(t.account({ numbersMonthlyQuota: null }));
    for (let i = 0; i < 3; i += 1) expect((await t.get(acct, NUMBER)).status).toBe(200);
    expect(await used(acct.id)).toBe(3);
  });

  it('when the quota is 0, then the first lookup is refused and nothing is counted', async () => {
    const acct = await t.publishAccount(t.account({ numbersMonthlyQuota: 0 }));
    expect((await t.get(acct, NUMBER)).status).toBe(429);
    expect(await used(acct.id)).toBe(0);
  });

  it('when a request is refused (401, 403, 404), then nothing is counted', async () => {
    const acct = await t.publishAccount(
      t.account({ numbersMonthlyQuota: 5, numberScopes: ['numbers:read'] }),
    );
    expect((await t.get(acct, `${NUMBER}/live-status`)).status).toBe(403);
    expect((await t.get(acct, `${NUMBER}/nothing`)).status).toBe(404);
    expect(await used(acct.id)).toBe(0);
  });
});

describe('lookups failing on the service side', () => {
  let empty: TestNumbers;
  beforeAll(async () => {
    empty = await startTestNumbers({ sample: false });
  }, 60_000);
  afterAll(async () => empty?.stop());

  it('when no registry snapshot is loaded, then 503 provider-unavailable with Retry-After, not counted against the quota', async () => {
    const acct = await empty.publishAccount(empty.account({ numbersMonthlyQuota: 1 }));
    const res = await empty.get(acct, NUMBER);
    expect(res.status).toBe(503);
    expect(res.body.type).toBe('https://problems.example.test/numbers/provider-unavailable');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.headers.vary).toBe('Authorization');
    const { rows } = await empty.pool.query(
      'SELECT count FROM numbers.lookup_count WHERE account_id = $1',
      [acct.id],
    );
    expect(rows).toEqual([]);
    // Other countries do not need the registry; the quota is still whole.
    expect((await empty.get(acct, '/v1/numbers/+4915123456789')).status).toBe(200);
  });
});
