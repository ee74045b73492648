/** Messages between the speech engine and its synthesis worker processes (IPC, advanced serialisation). */
export interface SynthesisJob {
  readonly id: number;
  readonly ssml: string;
  readonly voice: string;
}

export type WorkerMessage =
  | { readonly kind: 'ready' }
  | { readonly kind: 'done'; readonly id: number; readonly mulaw: Uint8Array }
  | { readonly kind: 'failed'; readonly id: number; readonly error: string };
