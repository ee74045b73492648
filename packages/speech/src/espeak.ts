import initialize from '@echogarden/espeak-ng-emscripten';

/** eSpeak NG (GPL-3.0) in this process: only ever loaded inside the synthesis worker or a benchmark. */
export interface Espeak {
  readonly sampleRate: number;
  /** 16-bit mono PCM at `sampleRate` for SSML text spoken by an eSpeak NG voice (`sv+f3`). */
  synthesize(ssml: string, voice: string): Int16Array;
}

export async function loadEspeak(): Promise<Espeak> {
  const module = await initialize();
  const worker = new module.eSpeakNGWorker();
  let currentVoice: string | undefined;
  return {
    sampleRate: worker.samplerate,
    synthesize(ssml, voice) {
      if (voice !== currentVoice) {
        const code = worker.set_voice(voice);
        if (code !== 0) throw new Error(`eSpeak NG has no voice "${voice}" (code ${code})`);
        currentVoice = voice;
      }
      const chunks: Int16Array[] = [];
      worker.synthesize(ssml, (samples) => {
        if (samples.length > 0) chunks.push(samples);
        return false; // false = go on
      });
      const pcm = new Int16Array(chunks.reduce((n, chunk) => n + chunk.length, 0));
      let offset = 0;
      for (const chunk of chunks) {
        pcm.set(chunk, offset);
        offset += chunk.length;
      }
      return pcm;
    },
  };
}
