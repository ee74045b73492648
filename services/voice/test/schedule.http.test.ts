import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeSipCaller } from './fakes.js';
import { startTestVoice, type TestVoice } from './support.js';

let voice: TestVoice;
let clock = new Date('2026-11-24T12:00:00Z');
const sip = fakeSipCaller({ kind: 'no_answer' });
const settle = () => new Promise((r) => setTimeout(r, 300));

beforeAll(async () => {
  // The default VOICE_REATTEMPT_INTERVAL (2m) on an injected clock.
  voice = await startTestVoice({
    deps: { sip, now: () => clock },
    env: { VOICE_REATTEMPT_INTERVAL: '2m' },
  });
});
afterAll(() => voice?.stop());

const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};

describe('the reattempt schedule (spec 3.4, 8.5: 2 reattempts at 2-minute intervals)', () => {
  it('when a call is not answered, then the next is placed 2 minutes later by the clock, not before, and there are 3 in all', async () => {
    const acct = await voice.publishAccount(voice.account());
    const to = '+442070009001';
    const res = await voice.send(acct, { to, text: 'x' });
    const id = res.body.transaction_id;
    await settle();
    expect(sip.callsTo(to)).toHaveLength(1);

    advance(119_000);
    await settle();
    expect(sip.callsTo(to)).toHaveLength(1);
    advance(1_000);
    await settle();
    expect(sip.callsTo(to)).toHaveLength(2);

    advance(120_000);
    await settle();
    expect(sip.callsTo(to)).toHaveLength(3);
    expect((await voice.status(acct, id)).body).toMatchObject({
      status: 'failed',
      failure_code: 1,
    });

    advance(600_000);
    await settle();
    expect(sip.callsTo(to)).toHaveLength(3);
    const { rows } = await voice.pool.query(
      'SELECT due_at FROM voice.attempts WHERE transaction_id = $1 ORDER BY number',
      [id],
    );
    expect(rows.map((r) => r.due_at.toISOString())).toEqual([
      '2026-11-24T12:00:00.000Z',
      '2026-11-24T12:02:00.000Z',
      '2026-11-24T12:04:00.000Z',
    ]);
  });
});
