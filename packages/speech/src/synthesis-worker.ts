// Entry point of a synthesis worker process, forked by the speech engine. eSpeak NG (GPL-3.0)
// runs only here, as a separate program that talks to the platform over IPC; the CPU-heavy
// synthesis, resampling and encoding stay off the service's event loop.
import { loadEspeak } from './espeak.js';
import { toTelephonyMulaw } from './telephony-audio.js';
import type { SynthesisJob, WorkerMessage } from './worker-protocol.js';

/** Peak amplitude (16-bit) below which audio counts as silence, about -54 dBFS. */
const SILENCE = 64;

const send = (message: WorkerMessage) => process.send?.(message);

const espeak = await loadEspeak();
process.on('message', (job: SynthesisJob) => {
  try {
    const pcm = espeak.synthesize(job.ssml, job.voice);
    // A call that plays only silence is a failure, not a success.
    if (!pcm.some((sample) => Math.abs(sample) > SILENCE))
      throw new Error('no audio: the text has nothing to speak');
    send({ kind: 'done', id: job.id, mulaw: toTelephonyMulaw(pcm, espeak.sampleRate) });
  } catch (err) {
    send({ kind: 'failed', id: job.id, error: err instanceof Error ? err.message : String(err) });
  }
});
// The engine closed or died: nothing more will come.
process.on('disconnect', () => process.exit(0));
send({ kind: 'ready' });
