// Answering-machine detection in a real call: SIPp answers and streams a synthetic greeting
// (words, pause, beep) as RTP; the caller must decide "machine" and start playing only after
// the beep.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type CallReport, createSipCaller, type SipCaller } from '../src/index.js';
import { type SippRun, SKIP_MESSAGE, sippInstalled, startSipp } from './sipp.js';
import { beep, silence, toMulaw, words } from './synthetic-audio.js';

let sipp: SippRun | undefined;
let caller: SipCaller | undefined;
afterEach(async () => {
  await caller?.close();
  sipp?.kill();
});

describe.skipIf(!sippInstalled)(
  sippInstalled ? 'answering-machine detection in a call' : `AMD in a call (${SKIP_MESSAGE})`,
  () => {
    it('when a machine answers with a greeting and a beep, then the message is played after the beep', async () => {
      const greeting = [
        ...silence(200),
        ...words([400, 300, 450, 350, 500], 150),
        ...silence(500),
        ...beep(500),
      ];
      const file = join(mkdtempSync(join(tmpdir(), 'amd-')), 'greeting.ulaw');
      writeFileSync(file, toMulaw([...greeting, ...silence(4000)]));
      sipp = await startSipp('uas-machine.xml', { replace: { AUDIO_FILE: file } });
      const reports: CallReport[] = [];
      caller = await createSipCaller({
        trunk: { host: sipp.host, port: sipp.port },
        onCallEnded: (report) => reports.push(report),
      });
      const message = toMulaw(silence(1000));
      const started = Date.now();
      const outcome = await caller.call({
        from: '+46700000001',
        to: '+46700000777',
        audio: message,
        playCount: 1,
        ringTimeoutMs: 5000,
        machineDetection: true,
      });
      const elapsed = Date.now() - started;
      const result = await sipp.done;
      expect(result.code, result.output).toBe(0);
      expect(outcome).toMatchObject({
        kind: 'answered',
        answeredBy: 'machine',
        listenedSeconds: 1,
      });
      if (outcome.kind !== 'answered') return;
      // Played after the greeting and beep (plus the end-of-greeting silence), not during them.
      const greetingMs = (greeting.length / 8000) * 1000;
      expect(outcome.durationSeconds * 1000).toBeGreaterThanOrEqual(greetingMs + 1000 + 1000 - 100);
      expect(elapsed).toBeLessThan(15_000);
      expect(reports[0]?.rtp.packetsReceived).toBeGreaterThan(greetingMs / 20 - 5);
    });

    it('when a person answers with a short "hello?", then the message is played once they wait', async () => {
      const hello = [...silence(300), ...words([450], 0)];
      const file = join(mkdtempSync(join(tmpdir(), 'amd-')), 'hello.ulaw');
      writeFileSync(file, toMulaw([...hello, ...silence(4000)]));
      sipp = await startSipp('uas-machine.xml', { replace: { AUDIO_FILE: file } });
      caller = await createSipCaller({ trunk: { host: sipp.host, port: sipp.port } });
      const outcome = await caller.call({
        from: '+46700000001',
        to: '+46700000002',
        audio: toMulaw(silence(1000)),
        playCount: 1,
        ringTimeoutMs: 5000,
        machineDetection: true,
      });
      expect((await sipp.done).code).toBe(0);
      expect(outcome).toMatchObject({ kind: 'answered', answeredBy: 'human', listenedSeconds: 1 });
      if (outcome.kind !== 'answered') return;
      // hello (0.75 s) + 0.8 s of silence to decide + 1 s of message; well before a machine's wait.
      expect(outcome.durationSeconds).toBeGreaterThanOrEqual(2.5);
      expect(outcome.durationSeconds).toBeLessThan(4.5);
    });
  },
);
