import type { AccountState } from '@msg/contracts';
import { createSipCaller, DEFAULT_AMD_PARAMETERS } from '@msg/sip-call';
import {
  type CallRecord,
  HUMAN_SCRIPT,
  MACHINE_SCRIPT,
  type SipCallee,
  startSipCallee,
} from '@msg/sip-callee';
import { createSpeechEngine } from '@msg/speech';
import {
  createScratchDatabase,
  eventually,
  type ScratchDatabase,
  startTestRuntime,
  type TestRuntime,
} from '@msg/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallOutcome, CallRequest, SipCaller } from '../src/calls/ports.js';
import { startTestVoice } from './support.js';

// Spec 3.4's state table with the real parts: eSpeak NG speaks (@msg/speech), @msg/sip-call places
// the calls over UDP and RTP, and infra/sip-callee answers by the dialled number's suffix (…486
// busy, …4860 busy then human, …603 reject, …480 unavailable, …000 rings until cancelled, …777
// machine, anything else a human). The database is real Postgres (TEST_DATABASE_URL, default
// the local server), so the restart row starts a new process on the same tables.

const TEXT = 'Your code is 4 7 1 9';
/** Short waits so the whole table runs in about a minute (3 attempts of 3 s rings, 1 s apart). */
const ENV = { VOICE_REATTEMPT_INTERVAL: '1s', VOICE_RING_TIMEOUT: '3s' };
const REATTEMPT_MS = 1000;
/** A message's end: 3 rings of 3 s, synthesis and answers; generous for a loaded machine. */
const FINISH_MS = 60_000;

let database: ScratchDatabase;
let runtime: TestRuntime;
let callee: SipCallee;

beforeAll(async () => {
  // Not on 127.0.0.1, the caller's own address: sip.js (under @msg/sip-call) takes a request to
  // its own host for one of its flows and answers it 404 itself, without sending anything.
  callee = await startSipCallee({ host: '127.0.0.2' });
  database = await createScratchDatabase('voice');
  runtime = await startTestRuntime({ service: 'voice', databaseUrl: database.url });
});
afterAll(async () => {
  await runtime?.stop();
  await database?.drop();
  await callee?.close();
});

/** A placed call as the service asked for it and what @msg/sip-call answered. */
interface PlacedCall {
  request: CallRequest;
  outcome: CallOutcome;
}

/**
 * The real SIP caller towards the callee, observed: it delegates every call and keeps the
 * request (the synthesized audio) and the outcome (answeredBy is not stored by the service).
 */
async function observedSipCaller() {
  const caller = await createSipCaller({
    trunk: { host: callee.sipHost, port: callee.sipPort },
  });
  const placed: PlacedCall[] = [];
  const sip: SipCaller & { placedTo(to: string): PlacedCall[] } = {
    async call(request, signal) {
      const outcome = await caller.call(request, signal);
      placed.push({ request, outcome });
      return outcome;
    },
    close: () => caller.close(),
    placedTo: (to) => placed.filter((p) => p.request.to === to),
  };
  return sip;
}

/** One voice process with the real speech engine and SIP caller (it closes both when stopped). */
async function startRealVoice(env: Record<string, string> = ENV) {
  return startTestVoice({
    runtime,
    env,
    deps: { speech: createSpeechEngine(), sip: await observedSipCaller() },
  });
}
type RealVoice = Awaited<ReturnType<typeof startRealVoice>>;

const digits = (number: string) => number.replace(/\D/g, '');
/** The callee's records of calls to `to` (it records the Request-URI's user part as sent). */
const calleeCallsTo = (to: string) => callee.calls().filter((c) => digits(c.to) === digits(to));

/** The callee's records of calls to `to`, once every one of them has ended. */
function endedCallsTo(to: string, count: number): Promise<CallRecord[]> {
  return eventually(() => {
    const calls = calleeCallsTo(to);
    const ended = calls.every((c) => c.outcome !== 'ringing' && c.outcome !== 'answered');
    return calls.length >= count && ended ? calls : undefined;
  }, `${count} ended calls to ${to} at the callee`);
}

/** Milliseconds of audio the callee should hear: the synthesized audio in whole 20 ms frames. */
const framedMs = (audio: Buffer) => Math.ceil(audio.length / 160) * 20;

/**
 * When our audio started, in ms after the callee's 200 OK: the call's length at the callee less
 * the audio it received (we hang up when the last frame's 20 ms have passed). Transit and timer
 * lateness make it a little late, never early.
 */
function audioStartMs(call: CallRecord): number {
  const answeredAt = Date.parse(call.answeredAt ?? '');
  const endedAt = Date.parse(call.endedAt ?? '');
  return endedAt - answeredAt - call.audioMs;
}

/** Asserts the callee heard our whole audio once, as speech, and answers the call. */
function expectHeardOnce(call: CallRecord, placed: PlacedCall) {
  expect(call).toMatchObject({ outcome: 'completed', finalStatus: 200, endedBy: 'caller' });
  expect(call.rtpPackets).toBeGreaterThan(0);
  expect(call.heard?.speechLike).toBe(true);
  // Loopback UDP loses nothing: every frame arrives (a lost frame or two would not fail it).
  expect(Math.abs(call.audioMs - framedMs(placed.request.audio))).toBeLessThanOrEqual(40);
}

async function publishAccount(voice: RealVoice, state?: AccountState) {
  return voice.publishAccount(state ?? voice.reportingAccount());
}

async function attemptOutcomes(transactionId: string) {
  const { rows } = await runtime.pool.query<{ outcome: string }>(
    'SELECT outcome FROM voice.attempts WHERE transaction_id = $1 ORDER BY number',
    [transactionId],
  );
  return rows.map((r) => r.outcome);
}

/** The report of the message once published, after checking that no second one follows. */
async function onlyReportOf(voice: RealVoice, transactionId: string) {
  await eventually(
    () => (voice.reportsOf(transactionId).length > 0 ? true : undefined),
    `report of ${transactionId}`,
  );
  await new Promise((r) => setTimeout(r, 200));
  const reports = voice.reportsOf(transactionId);
  expect(reports).toHaveLength(1);
  return reports[0]?.query;
}

/** Measurements go to the test output (the AMD decision times are reported, not asserted). */
const note = (line: string) => process.stdout.write(`[voice calls over SIP] ${line}\n`);

describe('spec 3.4 against infra/sip-callee, with eSpeak NG and @msg/sip-call', () => {
  let voice: RealVoice;
  let acct: AccountState;

  beforeAll(async () => {
    voice = await startRealVoice();
    acct = await publishAccount(voice);
  });
  afterAll(() => voice?.stop());

  async function deliver(to: string, extra: object = {}) {
    const res = await voice.send(acct, { to, text: TEXT, play_count: 1, ...extra });
    expect(res.status).toBe(202);
    const id = res.body.transaction_id as string;
    const status = await voice.finished(acct, id, FINISH_MS);
    return { id, status, placed: voice.sip.placedTo(to) };
  }

  it('when a person answers, then completed with the call duration, 1 call, the callee heard our speech, report Result 1 / StatusCode 1', async () => {
    const to = '+442070001234';
    const { id, status, placed } = await deliver(to);
    const [call] = await endedCallsTo(to, 1);
    expect(calleeCallsTo(to)).toHaveLength(1);
    expect(placed).toHaveLength(1);
    const [first] = placed as [PlacedCall];
    expect(status).toMatchObject({ status: 'completed', failure_code: null });
    expect(status.duration_seconds).toBeGreaterThan(0);
    expectHeardOnce(call as CallRecord, first);
    // duration_seconds is the answered call's length, as the callee timed it (to the second).
    const calleeSeconds =
      (Date.parse(call?.endedAt ?? '') - Date.parse(call?.answeredAt ?? '')) / 1000;
    expect(Math.abs(status.duration_seconds - calleeSeconds)).toBeLessThanOrEqual(1);
    expect(await attemptOutcomes(id)).toEqual(['answered']);
    const report = await onlyReportOf(voice, id);
    expect(report).toMatchObject({ Result: '1', StatusCode: '1', Sequence: 'end' });
    // ProgressTime: the seconds listened, i.e. the audio played once.
    const audioSeconds = framedMs(first.request.audio) / 1000;
    expect(Math.abs(Number(report?.ProgressTime) - audioSeconds)).toBeLessThanOrEqual(1);
  });

  it('when busy on the first call and a person answers the second, then completed after exactly 2 calls', async () => {
    const to = '+442070014860';
    const { id, status, placed } = await deliver(to);
    expect(status).toMatchObject({ status: 'completed', failure_code: null });
    expect(status.duration_seconds).toBeGreaterThan(0);
    const calls = await endedCallsTo(to, 2);
    expect(calls.map((c) => c.outcome)).toEqual(['busy', 'completed']);
    expectHeardOnce(calls[1] as CallRecord, placed[1] as PlacedCall);
    // The second call waited VOICE_REATTEMPT_INTERVAL after the first ended.
    const gap = Date.parse(calls[1]?.startedAt ?? '') - Date.parse(calls[0]?.endedAt ?? '');
    expect(gap).toBeGreaterThanOrEqual(REATTEMPT_MS - 10);
    expect(await attemptOutcomes(id)).toEqual(['busy', 'answered']);
    expect(await onlyReportOf(voice, id)).toMatchObject({ Result: '1', StatusCode: '1' });
  });

  it('when busy every time, then failed 1 after exactly 3 calls, report Result 2 / StatusCode 1', async () => {
    const to = '+442070001486';
    const { id, status } = await deliver(to);
    expect(status).toMatchObject({ status: 'failed', failure_code: 1, duration_seconds: null });
    const calls = await endedCallsTo(to, 3);
    expect(calls.map((c) => [c.outcome, c.finalStatus, c.rtpPackets])).toEqual([
      ['busy', 486, 0],
      ['busy', 486, 0],
      ['busy', 486, 0],
    ]);
    expect(await attemptOutcomes(id)).toEqual(['busy', 'busy', 'busy']);
    expect(await onlyReportOf(voice, id)).toMatchObject({
      Result: '2',
      StatusCode: '1',
      ProgressTime: '0',
    });
    // No fourth attempt follows.
    await new Promise((r) => setTimeout(r, REATTEMPT_MS + 500));
    expect(calleeCallsTo(to)).toHaveLength(3);
  });

  it('when it rings until the ring timeout every time, then failed 1 after 3 calls, each cancelled', async () => {
    const to = '+442070001000';
    const { id, status } = await deliver(to);
    expect(status).toMatchObject({ status: 'failed', failure_code: 1, duration_seconds: null });
    const calls = await endedCallsTo(to, 3);
    expect(calls.map((c) => [c.outcome, c.finalStatus])).toEqual([
      ['cancelled', 487],
      ['cancelled', 487],
      ['cancelled', 487],
    ]);
    for (const call of calls) {
      // Cancelled by us after VOICE_RING_TIMEOUT (3 s), not by the callee's own limit (3 min).
      const rang = Date.parse(call.endedAt ?? '') - Date.parse(call.startedAt);
      expect(rang).toBeGreaterThanOrEqual(2900);
      expect(rang).toBeLessThan(30_000);
    }
    expect(await attemptOutcomes(id)).toEqual(['no_answer', 'no_answer', 'no_answer']);
    expect(await onlyReportOf(voice, id)).toMatchObject({ Result: '2', StatusCode: '1' });
  });

  it('when temporarily unavailable (480) every time, then failed 1 after 3 calls', async () => {
    const to = '+442070001480';
    const { id, status } = await deliver(to);
    expect(status).toMatchObject({ status: 'failed', failure_code: 1 });
    const calls = await endedCallsTo(to, 3);
    expect(calls.map((c) => c.outcome)).toEqual(['unavailable', 'unavailable', 'unavailable']);
    expect(await attemptOutcomes(id)).toEqual(['no_answer', 'no_answer', 'no_answer']);
  });

  it('when rejected (603), then failed 1 after exactly 1 call and no reattempt', async () => {
    const to = '+442070001603';
    const { id, status } = await deliver(to);
    expect(status).toMatchObject({ status: 'failed', failure_code: 1, duration_seconds: null });
    const calls = await endedCallsTo(to, 1);
    expect(calls.map((c) => [c.outcome, c.finalStatus])).toEqual([['rejected', 603]]);
    expect(await onlyReportOf(voice, id)).toMatchObject({ Result: '2', StatusCode: '1' });
    // A reattempt would come VOICE_REATTEMPT_INTERVAL after it: none does.
    await new Promise((r) => setTimeout(r, REATTEMPT_MS + 500));
    expect(calleeCallsTo(to)).toHaveLength(1);
    expect(await attemptOutcomes(id)).toEqual(['rejected']);
  });

  it('when a machine answers and machine_detection is on, then completed and our audio starts after its greeting and beep', async () => {
    const to = '+442070001777';
    const { status, placed } = await deliver(to, { machine_detection: true });
    expect(status).toMatchObject({ status: 'completed', failure_code: null });
    const [call] = await endedCallsTo(to, 1);
    const [first] = placed as [PlacedCall];
    expect(first.outcome).toMatchObject({ kind: 'answered', answeredBy: 'machine' });
    expectHeardOnce(call as CallRecord, first);
    const started = audioStartMs(call as CallRecord);
    note(
      `machine: our audio started ${started} ms after the 200 OK (beep ends at ${MACHINE_SCRIPT.endMs} ms)`,
    );
    // Left on the recording after the beep, not spoken over the greeting; and not held back
    // until the detector's 30 s limit.
    expect(started).toBeGreaterThanOrEqual(MACHINE_SCRIPT.endMs);
    expect(started).toBeLessThan(DEFAULT_AMD_PARAMETERS.maxGreetingWaitMs);
  });

  it('when a person answers and machine_detection is on, then completed, detected as a person, our audio starts after the "hello?"', async () => {
    const to = '+442070002234';
    const { status, placed } = await deliver(to, { machine_detection: true });
    expect(status).toMatchObject({ status: 'completed', failure_code: null });
    const [call] = await endedCallsTo(to, 1);
    const [first] = placed as [PlacedCall];
    expect(first.outcome).toMatchObject({ kind: 'answered', answeredBy: 'human' });
    expectHeardOnce(call as CallRecord, first);
    const started = audioStartMs(call as CallRecord);
    note(
      `person, detection on: decided and started ${started} ms after the 200 OK ("hello?" ends at ${HUMAN_SCRIPT.endMs} ms)`,
    );
    expect(started).toBeGreaterThanOrEqual(HUMAN_SCRIPT.endMs);
    expect(started).toBeLessThan(DEFAULT_AMD_PARAMETERS.totalAnalysisMs + 1000);
  });

  it('when a person answers and machine_detection is off, then completed without waiting for a detection', async () => {
    const to = '+442070003234';
    const { status, placed } = await deliver(to, { machine_detection: false });
    expect(status).toMatchObject({ status: 'completed', failure_code: null });
    const [call] = await endedCallsTo(to, 1);
    const [first] = placed as [PlacedCall];
    expect(first.outcome).toMatchObject({ kind: 'answered', answeredBy: 'unknown' });
    expectHeardOnce(call as CallRecord, first);
    const started = audioStartMs(call as CallRecord);
    note(`person, detection off: started ${started} ms after the 200 OK`);
    // Before any detector could have decided "person" (the end of "hello?" + the silence after it).
    expect(started).toBeLessThan(
      HUMAN_SCRIPT.endMs + DEFAULT_AMD_PARAMETERS.afterGreetingSilenceMs,
    );
  });
});

describe('a restart in the middle of the reattempt schedule', () => {
  const started: RealVoice[] = [];
  afterAll(async () => {
    for (const voice of started) await voice.stop().catch(() => undefined);
  });

  it('when the service stops after the first busy call and a new process starts on the same database, then completed after exactly 2 calls, one report', async () => {
    // The first process waits 4 s before a reattempt, so it surely stops before placing it.
    const first = await startRealVoice({ ...ENV, VOICE_REATTEMPT_INTERVAL: '4s' });
    started.push(first);
    const acct = await publishAccount(first);
    const to = '+442070024860';
    const res = await first.send(acct, { to, text: TEXT, play_count: 1 });
    expect(res.status).toBe(202);
    const id = res.body.transaction_id as string;
    await eventually(
      async () => ((await attemptOutcomes(id))[0] === 'busy' ? true : undefined),
      'the first attempt recorded busy',
      FINISH_MS,
    );
    await first.stop();
    started.splice(started.indexOf(first), 1);
    expect(await attemptOutcomes(id)).toEqual(['busy', null]);

    const second = await startRealVoice();
    started.push(second);
    await publishAccount(second, acct);
    const status = await second.finished(acct, id, FINISH_MS);
    expect(status).toMatchObject({ status: 'completed', failure_code: null });
    const calls = await endedCallsTo(to, 2);
    expect(calls.map((c) => c.outcome)).toEqual(['busy', 'completed']);
    expect(first.sip.placedTo(to).map((p) => p.outcome.kind)).toEqual(['busy']);
    expect(second.sip.placedTo(to).map((p) => p.outcome.kind)).toEqual(['answered']);
    expectHeardOnce(calls[1] as CallRecord, second.sip.placedTo(to)[0] as PlacedCall);
    expect(await attemptOutcomes(id)).toEqual(['busy', 'answered']);
    expect(await onlyReportOf(second, id)).toMatchObject({ Result: '1', StatusCode: '1' });
    // Nothing more: no third call, and still the one report (voice.events.v1, which also said
    // so, is no longer written: nobody read it).
    await new Promise((r) => setTimeout(r, REATTEMPT_MS + 500));
    expect(calleeCallsTo(to)).toHaveLength(2);
    expect(await onlyReportOf(second, id)).toMatchObject({ Result: '1', StatusCode: '1' });
  });
});
