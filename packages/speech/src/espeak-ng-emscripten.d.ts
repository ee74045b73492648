// The parts of the eSpeak NG WebAssembly module (@echogarden/espeak-ng-emscripten) we call.
declare module '@echogarden/espeak-ng-emscripten' {
  interface ESpeakNGWorker {
    /** 0 when the voice was found (eSpeak NG's EE_OK). */
    set_voice(name: string): number;
    /** Synchronous; the callback receives 16-bit PCM chunks at 22050 Hz. */
    synthesize(ssml: string, onChunk: (samples: Int16Array, events: unknown[]) => unknown): void;
    /** The phonemes eSpeak NG would speak, in IPA with "_" between phonemes. */
    synthesize_ipa(text: string): { code: number; ipa: string };
    readonly samplerate: number;
  }
  interface ESpeakNGModule {
    eSpeakNGWorker: new () => ESpeakNGWorker;
  }
  const initialize: () => Promise<ESpeakNGModule>;
  export default initialize;
}
