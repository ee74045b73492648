import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeHandledPushes } from '../src/inbound/push-retention.js';
import { startTestRcs, type TestRcs } from './support.js';

describe('handled RBM pushes are forgotten after their retention', () => {
  let rcs: TestRcs;
  beforeAll(async () => {
    rcs = await startTestRcs();
  });
  afterAll(async () => {
    await rcs?.stop();
  });

  it('when pushes are older than the retention, then only they are deleted, in batches', async () => {
    // A month ahead of the clock: the service's own purge (real time) must not touch these rows
    // while the test runs, or a fixed date would turn the test into a time bomb.
    const day = 24 * 3_600_000;
    const now = new Date(Date.now() + 30 * day);
    await rcs.pool.query(
      `INSERT INTO "rcs"."rbm_pushes" ("push_id", "received_at")
       SELECT 'old-' || i, $1::timestamptz FROM generate_series(1, 5) i
       UNION ALL SELECT 'new-' || i, $2::timestamptz FROM generate_series(1, 3) i`,
      [new Date(now.getTime() - 8 * day), new Date(now.getTime() - 6 * day)],
    );
    const purge = purgeHandledPushes(rcs.pool, { batch: 2, now: () => now });
    expect(await purge()).toBe(5);
    const { rows } = await rcs.pool.query<{ push_id: string }>(
      `SELECT "push_id" FROM "rcs"."rbm_pushes" WHERE "push_id" LIKE 'old-%' OR "push_id" LIKE 'new-%' ORDER BY 1`,
    );
    expect(rows.map((r) => r.push_id)).toEqual(['new-1', 'new-2', 'new-3']);
  });
});
