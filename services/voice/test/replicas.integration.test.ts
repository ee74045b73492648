import {
  createScratchDatabase,
  type ScratchDatabase,
  startTestRuntime,
  type TestRuntime,
} from '@msg/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answered, fakeSipCaller } from './fakes.js';
import { startTestVoice, type TestVoice } from './support.js';

// Real Postgres (TEST_DATABASE_URL, default the local server): three replicas claiming from one
// schema over separate connections, as in production.
let database: ScratchDatabase;
let runtime: TestRuntime;
const replicas: TestVoice[] = [];

beforeAll(async () => {
  database = await createScratchDatabase('voice');
  runtime = await startTestRuntime({ service: 'voice', databaseUrl: database.url });
  for (let i = 0; i < 3; i++) {
    // Every call is busy once, then answered: each message needs a reattempt, claimed by anyone.
    const sip = fakeSipCaller(answered(4, 3));
    replicas.push(
      await startTestVoice({ runtime, deps: { sip }, env: { VOICE_REATTEMPT_INTERVAL: '50ms' } }),
    );
  }
});
afterAll(async () => {
  for (const voice of replicas) await voice.stop();
  await runtime?.stop();
  await database?.drop();
});

describe('replicas on real Postgres', () => {
  it('when three replicas share 60 messages with reattempts, then every attempt is placed exactly once', async () => {
    const [first] = replicas as [TestVoice, ...TestVoice[]];
    const acct = await first.publishAccount(first.account());
    for (const voice of replicas.slice(1)) await voice.publishAccount(acct);
    const numbers = Array.from({ length: 60 }, (_, i) => `+4420700${String(i).padStart(5, '0')}`);
    // Busy on the first call to each number, whichever replica places it.
    for (const voice of replicas)
      for (const to of numbers) voice.sip.script(to, { kind: 'busy' }, answered(4, 3));
    const ids: string[] = [];
    for (const [i, to] of numbers.entries()) {
      const res = await (replicas[i % 3] as TestVoice).send(acct, { to, text: `m${i}` });
      expect(res.status).toBe(202);
      ids.push(res.body.transaction_id);
    }
    for (const id of ids) await first.finished(acct, id);
    const { rows } = await runtime.pool.query<{ n: number; outcomes: string[] }>(
      `SELECT count(*)::int AS n, array_agg(outcome ORDER BY number) AS outcomes
         FROM voice.attempts GROUP BY transaction_id`,
    );
    expect(rows).toHaveLength(60);
    // A replica scripts busy for ITS first call to a number, so a reattempt placed by another
    // replica may be busy too (three busy replicas: failed 1). What must hold: at most 3
    // attempts, each recorded once, ending answered or after the third busy.
    for (const row of rows) {
      expect(row.n).toBeLessThanOrEqual(3);
      expect(row.outcomes.at(-1) === 'answered' || row.n === 3).toBe(true);
    }
    const placed = replicas.reduce((sum, voice) => sum + voice.sip.calls.length, 0);
    const recorded = rows.reduce((sum, row) => sum + row.n, 0);
    expect(placed).toBe(recorded);
    const { rows: reports } = await runtime.pool.query(
      `SELECT count(*)::int AS n FROM voice.outbox_event WHERE topic = 'callbacks.v1'`,
    );
    expect(reports[0].n).toBe(0); // no report URL on this account
  });
});
