import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import wavefile from 'wavefile';
import { type SipCallee, startSipCallee } from '../src/index.js';
import {
  eventually,
  frameLevel,
  rtpSink,
  runSipp,
  scenario,
  speechFile,
  zeroCrossings,
} from './support.js';

let callee: SipCallee;

beforeAll(async () => {
  callee = await startSipCallee({ timings: { ringMs: 200, silenceHangupMs: 1500 } });
});
afterAll(() => callee.close());

const target = () => ({ host: callee.sipHost, port: callee.sipPort });
const VOICED_DB = -40;
const isBeep = (frame: Int16Array) =>
  frameLevel(frame) > -20 && Math.abs(zeroCrossings(frame) - 40) <= 2;

/** SIPp streams `seconds` of speech, then hangs up after `holdMs`; the sink gets our audio. */
async function streamedCall(service: string, seconds: number, holdMs: number) {
  const sink = await rtpSink();
  try {
    const run = await runSipp({
      target: target(),
      service,
      scenarioFile: scenario('uac-media', {
        sink_port: sink.port,
        audio_file: speechFile(seconds),
        hold_ms: holdMs,
      }),
    });
    expect(run.code, run.output).toBe(0);
    const record = await eventually(() =>
      callee.calls().find((call) => call.to === service && call.endedAt !== undefined),
    );
    return { record, frames: [...sink.frames] };
  } finally {
    await sink.close();
  }
}

describe('human', () => {
  // SIPp hangs up at 1.8 s, before this callee's own hang-up (1 s of audio + 1.5 s of silence).
  it('when SIPp streams 1 s of PCMU and hangs up, then the call records 50 packets to a 1 s WAV and reports speech', async () => {
    const { record, frames } = await streamedCall('46701230001', 1, 1800);

    expect(record).toMatchObject({
      behaviour: 'human',
      outcome: 'completed',
      finalStatus: 200,
      endedBy: 'caller',
      rtpPackets: 50,
      audioMs: 1000,
      heard: { speechLike: true },
    });
    const wav = new wavefile.WaveFile(readFileSync(record.wavFile ?? ''));
    expect(wav.fmt).toMatchObject({ numChannels: 1, sampleRate: 8000, bitsPerSample: 16 });
    expect((wav.data as { chunkSize: number }).chunkSize).toBe(8000 * 2);

    // What the caller heard: "hello?" (about 0.6 s of sound from 200 ms on), then silence.
    expect(frames.length).toBeGreaterThanOrEqual(80);
    const voiced = frames.flatMap((frame, index) => (frameLevel(frame) > VOICED_DB ? [index] : []));
    expect(voiced.length).toBeGreaterThanOrEqual(22);
    expect(voiced.length).toBeLessThanOrEqual(32);
    expect(voiced[0]).toBeGreaterThanOrEqual(9);
    expect(voiced.at(-1)).toBeLessThanOrEqual(41);
    expect(frames.filter(isBeep)).toHaveLength(0);
  });

  it('when the caller falls silent after its audio, then the callee hangs up with a BYE', async () => {
    const service = '46701230002';
    const run = await runSipp({
      target: target(),
      service,
      scenarioFile: scenario('uac-callee-hangs-up', {
        sink_port: 9,
        audio_file: speechFile(1),
        bye_timeout_ms: 10_000,
      }),
    });

    expect(run.code, run.output).toBe(0);
    const record = await eventually(() =>
      callee.calls().find((call) => call.to === service && call.endedAt !== undefined),
    );
    expect(record).toMatchObject({ outcome: 'completed', endedBy: 'callee', rtpPackets: 50 });
    // 1 s of audio, then the 1.5 s of silence this callee waits for.
    const heldMs = Date.parse(record.endedAt ?? '') - Date.parse(record.answeredAt ?? '');
    expect(heldMs).toBeGreaterThanOrEqual(2500);
  });
});

describe('machine', () => {
  it('when a ...777 number is called, then it plays a 3 s greeting and then a 1 kHz beep', async () => {
    const { record, frames } = await streamedCall('46701230777', 0.4, 5000);

    expect(record).toMatchObject({ behaviour: 'machine', outcome: 'completed', rtpPackets: 20 });
    expect(frames.length).toBeGreaterThanOrEqual(220);
    const beeps = frames.flatMap((frame, index) => (isBeep(frame) ? [index] : []));
    expect(beeps.length).toBeGreaterThanOrEqual(23);
    expect(beeps.length).toBeLessThanOrEqual(26);
    const greeting = frames
      .slice(0, beeps[0])
      .flatMap((frame, index) => (frameLevel(frame) > VOICED_DB ? [index] : []));
    // Five words over 300–3300 ms: long, and far longer than a human's "hello?".
    expect(greeting.length).toBeGreaterThanOrEqual(100);
    expect((greeting.at(-1) ?? 0) - (greeting[0] ?? 0)).toBeGreaterThanOrEqual(140);
    // The beep follows the greeting after a pause (3300 -> 3600 ms).
    expect((beeps[0] ?? 0) - (greeting.at(-1) ?? 0)).toBeGreaterThanOrEqual(10);
  });
});
