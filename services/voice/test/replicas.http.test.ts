import type { AccountState } from '@msg/contracts';
import { eventually, startTestRuntime, type TestRuntime } from '@msg/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { answered, fakeSipCaller } from './fakes.js';
import { startTestVoice, type TestVoice } from './support.js';

let runtime: TestRuntime;
const started: TestVoice[] = [];

beforeEach(async () => {
  runtime = await startTestRuntime({ service: 'voice' });
});
afterEach(async () => {
  for (const voice of started.splice(0)) await voice.stop().catch(() => undefined);
  await runtime.stop();
});

/** One replica of the service on the shared database and bus. */
async function replica(sip = fakeSipCaller(), env: Record<string, string> = {}) {
  const voice = await startTestVoice({ runtime, deps: { sip }, env });
  started.push(voice);
  return voice;
}

async function account(voice: TestVoice, state?: AccountState) {
  return voice.publishAccount(state ?? voice.reportingAccount());
}

async function attemptsOf(transactionId: string) {
  const { rows } = await runtime.pool.query(
    'SELECT number, outcome FROM voice.attempts WHERE transaction_id = $1 ORDER BY number',
    [transactionId],
  );
  return rows;
}

/** Reports asked for, as rows of the outbox (what the relay publishes to the notifier). */
async function reportRows(transactionId: string) {
  const { rows } = await runtime.pool.query(
    `SELECT value FROM voice.outbox_event WHERE topic = 'callbacks.v1' AND value->'payload'->'query'->>'TransactionId' = $1`,
    [transactionId],
  );
  return rows;
}

describe('restarts and replicas', () => {
  it('when the service restarts between a busy attempt and its reattempt, then the reattempt is placed once by the new process and one report follows', async () => {
    const first = await replica(fakeSipCaller({ kind: 'busy' }), {
      VOICE_REATTEMPT_INTERVAL: '700ms',
    });
    const acct = await account(first);
    const to = '+442070001001';
    const res = await first.send(acct, { to, text: 'restart me' });
    expect(res.status).toBe(202);
    const id = res.body.transaction_id;
    await eventually(
      async () => ((await attemptsOf(id))[0]?.outcome === 'busy' ? true : undefined),
      'attempt 1 busy',
    );
    await first.stop();
    started.splice(started.indexOf(first), 1);

    const second = await replica(fakeSipCaller(answered(8, 6)));
    await account(second, acct);
    expect(await second.finished(acct, id)).toMatchObject({
      status: 'completed',
      duration_seconds: 8,
    });
    expect(first.sip.callsTo(to)).toHaveLength(1);
    expect(second.sip.callsTo(to)).toHaveLength(1);
    expect(await attemptsOf(id)).toEqual([
      { number: 1, outcome: 'busy' },
      { number: 2, outcome: 'answered' },
    ]);
    await new Promise((r) => setTimeout(r, 300));
    expect(await reportRows(id)).toHaveLength(1);
  });

  it('when two replicas run at once, then every message is called exactly once', async () => {
    const a = await replica();
    const b = await replica();
    const acct = await account(a);
    await account(b, acct);
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await (i % 2 ? a : b).send(acct, {
        to: `+4420700020${String(i).padStart(2, '0')}`,
        text: `m${i}`,
      });
      ids.push(res.body.transaction_id);
    }
    for (const id of ids) await a.finished(acct, id);
    const calls = [...a.sip.calls, ...b.sip.calls].map((c) => c.to).sort();
    expect(calls).toHaveLength(20);
    expect(new Set(calls).size).toBe(20);
    for (const id of ids) expect(await reportRows(id)).toHaveLength(1);
  });

  it("when a worker dies during a call, then another retakes the attempt after its lease and the dead worker's late outcome is discarded", async () => {
    let release = () => {};
    const hung = fakeSipCaller({ kind: 'busy' });
    hung.holdCalls(
      new Promise<void>((r) => {
        release = r;
      }),
    );
    const a = await replica(hung, { VOICE_CALL_LEASE: '400ms' });
    const acct = await account(a);
    const to = '+442070003001';
    const id = (await a.send(acct, { to, text: 'lease' })).body.transaction_id;
    await eventually(() => (hung.callsTo(to).length === 1 ? true : undefined), 'call held');

    const b = await replica(fakeSipCaller(answered(3, 2)));
    await account(b, acct);
    expect(await b.finished(acct, id)).toMatchObject({ status: 'completed' });
    release();
    await new Promise((r) => setTimeout(r, 300));
    expect(await attemptsOf(id)).toEqual([{ number: 1, outcome: 'answered' }]);
    expect(await reportRows(id)).toHaveLength(1);
  });
});
