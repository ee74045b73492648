import type { AccountState } from '@msg/contracts';
import { eventually } from '@msg/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answered } from './fakes.js';
import { REGISTERED, REPORT_URL, startTestVoice, type TestVoice } from './support.js';

let voice: TestVoice;
let acct: AccountState;
let n = 0;
/** A fresh destination per test, so scripts and call counts are the test's own. */
const number = () => `+44207000${String(++n).padStart(4, '0')}`;

beforeAll(async () => {
  voice = await startTestVoice();
  acct = await voice.publishAccount(voice.reportingAccount());
});
afterAll(() => voice?.stop());

async function send(to: string, extra: object = {}) {
  const res = await voice.send(acct, { to, text: 'Your code is 1 2 3 4', ...extra });
  expect(res.status).toBe(202);
  return res.body.transaction_id as string;
}

async function attempts(transactionId: string) {
  const { rows } = await voice.pool.query(
    'SELECT number, outcome, due_at, finished_at FROM voice.attempts WHERE transaction_id = $1 ORDER BY number',
    [transactionId],
  );
  return rows;
}

/** The one report of the message, once published (and that no second one follows). */
async function reportOf(transactionId: string) {
  const [report] = await eventually(() => {
    const found = voice.reportsOf(transactionId);
    return found.length > 0 ? found : undefined;
  }, `report of ${transactionId}`);
  return report;
}

describe('the call of a message (spec 3.4)', () => {
  it('when the callee answers, then completed with duration_seconds and one report Result 1 / StatusCode 1', async () => {
    const to = number();
    voice.sip.script(to, answered(21, 17));
    const id = await send(to, {
      client_reference: 'order-7',
      play_count: 2,
      machine_detection: true,
    });
    const status = await voice.finished(acct, id);
    expect(status).toMatchObject({ status: 'completed', duration_seconds: 21, failure_code: null });
    const [call] = voice.sip.callsTo(to);
    expect(call).toMatchObject({
      to,
      playCount: 2,
      machineDetection: true,
      from: expect.any(String),
    });
    expect(call?.audio.length).toBeGreaterThan(0);
    expect(voice.speech.requests.at(-1)).toMatchObject({
      text: 'Your code is 1 2 3 4',
      language: 'en-GB',
      gender: 'male',
    });
    const report = await reportOf(id);
    expect(report).toMatchObject({ method: 'GET', url: REPORT_URL });
    expect(report?.query).toEqual({
      TransactionId: id,
      Result: '1',
      StatusCode: '1',
      ProgressTime: '17',
      Sequence: 'end',
      ExternalReferenceId: 'order-7',
    });
    // The notifier retries it for VOICE_REPORT_RETRY_PERIOD (1 h), then gives it up.
    const giveUp = Date.parse(report?.giveUpAt ?? '') - Date.now();
    expect(giveUp).toBeGreaterThan(55 * 60_000);
    expect(giveUp).toBeLessThanOrEqual(60 * 60_000);
  });

  it('when busy then answered on the second attempt, then completed after 2 calls an interval apart', async () => {
    const to = number();
    voice.sip.script(to, { kind: 'busy' }, answered(5, 4));
    const id = await send(to);
    expect(await voice.finished(acct, id)).toMatchObject({
      status: 'completed',
      duration_seconds: 5,
    });
    expect(voice.sip.callsTo(to)).toHaveLength(2);
    const rows = await attempts(id);
    expect(rows.map((r) => r.outcome)).toEqual(['busy', 'answered']);
    // VOICE_REATTEMPT_INTERVAL (150 ms in the tests) between the end of one and the next's due time.
    expect(rows[1].due_at.getTime() - rows[0].finished_at.getTime()).toBeGreaterThanOrEqual(149);
    expect((await reportOf(id))?.query).toMatchObject({
      Result: '1',
      StatusCode: '1',
      ProgressTime: '4',
    });
  });

  it('when never answered, then failed 1 after exactly 3 attempts and one report Result 2 / StatusCode 1', async () => {
    const to = number();
    voice.sip.script(to, { kind: 'no_answer' });
    const id = await send(to);
    expect(await voice.finished(acct, id)).toMatchObject({
      status: 'failed',
      failure_code: 1,
      duration_seconds: null,
    });
    expect(voice.sip.callsTo(to)).toHaveLength(3);
    expect((await attempts(id)).map((r) => r.outcome)).toEqual([
      'no_answer',
      'no_answer',
      'no_answer',
    ]);
    expect((await reportOf(id))?.query).toMatchObject({
      Result: '2',
      StatusCode: '1',
      ProgressTime: '0',
      ExternalReferenceId: '',
    });
  });

  it('when busy every time, then failed 1 after 3 attempts', async () => {
    const to = number();
    voice.sip.script(to, { kind: 'busy' });
    const id = await send(to);
    expect(await voice.finished(acct, id)).toMatchObject({ status: 'failed', failure_code: 1 });
    expect(voice.sip.callsTo(to)).toHaveLength(3);
  });

  it('when rejected (603), then failed 1 after 1 attempt', async () => {
    const to = number();
    voice.sip.script(to, { kind: 'rejected', status: 603 }, answered(1, 1));
    const id = await send(to);
    expect(await voice.finished(acct, id)).toMatchObject({ status: 'failed', failure_code: 1 });
    await new Promise((r) => setTimeout(r, 400));
    expect(voice.sip.callsTo(to)).toHaveLength(1);
    expect(await attempts(id)).toMatchObject([{ outcome: 'rejected' }]);
  });

  it('when synthesis fails, then failed 5 without a call and a report Result 2 / StatusCode 5', async () => {
    const to = number();
    const id = await send(to, { text: 'cannot be spoken', language: 'zh' });
    // The fake engine fails this text only.
    expect(await voice.finished(acct, id)).toMatchObject({ status: 'failed', failure_code: 5 });
    expect(voice.sip.callsTo(to)).toHaveLength(0);
    expect((await reportOf(id))?.query).toMatchObject({ Result: '2', StatusCode: '5' });
  });

  it('when the call fails on our side, then failed 5 after 1 attempt', async () => {
    const to = number();
    voice.sip.script(to, { kind: 'error', message: 'no route to trunk' });
    const id = await send(to);
    expect(await voice.finished(acct, id)).toMatchObject({ status: 'failed', failure_code: 5 });
    expect(voice.sip.callsTo(to)).toHaveLength(1);
  });

  it('when an answering machine answers (machine_detection), then completed: the message was played to it', async () => {
    const to = number();
    voice.sip.script(to, {
      kind: 'answered',
      answeredBy: 'machine',
      durationSeconds: 30,
      listenedSeconds: 24,
    });
    const id = await send(to, { machine_detection: true });
    expect(await voice.finished(acct, id)).toMatchObject({
      status: 'completed',
      duration_seconds: 30,
    });
    expect(voice.sip.callsTo(to)).toHaveLength(1);
    expect((await reportOf(id))?.query).toMatchObject({ Result: '1', ProgressTime: '24' });
  });

  it('when the sender is registered, then the call shows it', async () => {
    const to = number();
    const id = await send(to, { sender: REGISTERED });
    await voice.finished(acct, id);
    expect(voice.sip.callsTo(to)[0]?.from).toBe(REGISTERED);
  });

  it('when the account has no voice report URL, then no report is asked for', async () => {
    const other = await voice.publishAccount(voice.account());
    const to = number();
    const res = await voice.send(other, { to, text: 'x' });
    await voice.finished(other, res.body.transaction_id);
    await new Promise((r) => setTimeout(r, 200));
    expect(voice.reportsOf(res.body.transaction_id)).toEqual([]);
  });
});
