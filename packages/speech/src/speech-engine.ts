import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { canonicalLanguage, espeakVoice, type SpeechGender } from './languages.js';
import type { SpeechMarkup } from './markup.js';
import { markupSsml, plainTextSsml } from './ssml.js';
import { TELEPHONY_RATE } from './telephony-audio.js';
import type { SynthesisJob, WorkerMessage } from './worker-protocol.js';

export interface SpeechRequest {
  /** Plain text: any markup in it is read as text, never obeyed. */
  text: string;
  /** A canonical tag of VOICE_LANGUAGES. */
  language: string;
  gender: SpeechGender;
  /** Legacy only: the parsed <break>/<prosody> document; replaces `text`. */
  markup?: SpeechMarkup;
}

/** G.711 mu-law mono at 8 kHz, whole 20 ms frames: mulaw.length === durationMs * 8. */
export interface SpeechAudio {
  mulaw: Buffer;
  sampleRate: 8000;
  durationMs: number;
}

export interface SpeechEngine {
  synthesize(request: SpeechRequest): Promise<SpeechAudio>;
  close(): Promise<void>;
}

export interface SpeechEngineOptions {
  /** Worker processes synthesising in parallel (default 1); requests beyond them queue. */
  workers?: number;
  /** A synthesis taking longer fails and its worker is replaced (default 60 s). */
  timeoutMs?: number;
}

/** Synthesis failed: the worker reported an error, died, timed out, or the engine closed. */
export class SpeechError extends Error {
  override name = 'SpeechError';
}

interface Pending {
  job: SynthesisJob;
  resolve: (audio: SpeechAudio) => void;
  reject: (err: Error) => void;
}

interface Slot {
  child: ChildProcess;
  ready: boolean;
  /** Being killed (timed out): takes no more work. */
  retired: boolean;
  current?: Pending;
  timer?: NodeJS.Timeout;
  failure?: string;
}

/** After this many workers in a row die before becoming ready, queued requests fail. */
const MAX_START_FAILURES = 3;

/**
 * The compiled worker: beside this module in dist/, or in dist/ when this module runs from
 * src/ under the test runner (the tests build the package first).
 */
function workerScript(): string {
  const here = import.meta.url;
  return fileURLToPath(
    new URL(here.endsWith('.ts') ? '../dist/synthesis-worker.js' : './synthesis-worker.js', here),
  );
}

export function createSpeechEngine(options: SpeechEngineOptions = {}): SpeechEngine {
  const size = Math.max(1, Math.floor(options.workers ?? 1));
  const timeoutMs = options.timeoutMs ?? 60_000;
  const script = workerScript();
  const queue: Pending[] = [];
  const slots = new Set<Slot>();
  let nextId = 1;
  let startFailures = 0;
  let closed = false;

  function spawn(): void {
    const child = fork(script, [], {
      execArgv: [], // not the parent's flags (test runner loaders, inspector)
      serialization: 'advanced', // Uint8Array crosses as bytes, not JSON
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const slot: Slot = { child, ready: false, retired: false };
    slots.add(slot);
    child.on('message', (message: WorkerMessage) => onMessage(slot, message));
    child.on('error', (err) => {
      slot.failure = err.message;
    });
    child.on('exit', (code, signal) =>
      onExit(slot, slot.failure ?? `code ${code}, signal ${signal}`),
    );
  }

  function onMessage(slot: Slot, message: WorkerMessage): void {
    if (message.kind === 'ready') {
      slot.ready = true;
      startFailures = 0;
    } else {
      const pending = slot.current;
      finish(slot);
      if (pending?.job.id === message.id) {
        if (message.kind === 'done') {
          const mulaw = Buffer.from(
            message.mulaw.buffer,
            message.mulaw.byteOffset,
            message.mulaw.length,
          );
          pending.resolve({ mulaw, sampleRate: TELEPHONY_RATE, durationMs: mulaw.length / 8 });
        } else pending.reject(new SpeechError(`speech synthesis failed: ${message.error}`));
      }
    }
    dispatch();
  }

  function onExit(slot: Slot, reason: string): void {
    slots.delete(slot);
    const pending = slot.current;
    finish(slot);
    pending?.reject(new SpeechError(`speech worker exited during synthesis (${reason})`));
    if (closed) return;
    if (!slot.ready && ++startFailures >= MAX_START_FAILURES) {
      // A worker that cannot start will not start on retry either: fail what waits, and try
      // again only when a new request comes.
      for (const waiting of queue.splice(0))
        waiting.reject(new SpeechError(`speech worker cannot start (${reason})`));
      return;
    }
    spawn();
  }

  function finish(slot: Slot): void {
    clearTimeout(slot.timer);
    slot.current = undefined;
    slot.timer = undefined;
  }

  function dispatch(): void {
    for (const slot of slots) {
      if (!slot.ready || slot.retired || slot.current || !slot.child.connected) continue;
      const pending = queue.shift();
      if (!pending) return;
      slot.current = pending;
      slot.timer = setTimeout(() => {
        finish(slot);
        slot.retired = true;
        pending.reject(new SpeechError(`speech synthesis timed out after ${timeoutMs} ms`));
        slot.child.kill('SIGKILL'); // its exit replaces it
      }, timeoutMs);
      slot.child.send(pending.job);
    }
  }

  for (let i = 0; i < size; i++) spawn();

  return {
    synthesize(request) {
      if (closed) return Promise.reject(new SpeechError('speech engine is closed'));
      let job: SynthesisJob;
      try {
        const voice = espeakVoice(request.language, request.gender);
        const language = canonicalLanguage(request.language) ?? request.language;
        const ssml = request.markup
          ? markupSsml(request.markup, language)
          : plainTextSsml(request.text, language);
        job = { id: nextId++, voice, ssml };
      } catch (err) {
        return Promise.reject(err);
      }
      return new Promise<SpeechAudio>((resolve, reject) => {
        queue.push({ job, resolve, reject });
        if (slots.size === 0) {
          startFailures = 0;
          for (let i = 0; i < size; i++) spawn();
        }
        dispatch();
      });
    },

    async close() {
      if (closed) return;
      closed = true;
      for (const waiting of queue.splice(0))
        waiting.reject(new SpeechError('speech engine is closed'));
      await Promise.all(
        [...slots].map(
          (slot) =>
            new Promise<void>((resolve) => {
              if (slot.child.exitCode !== null || slot.child.signalCode !== null) return resolve();
              slot.child.once('exit', () => resolve());
              slot.child.kill('SIGTERM');
            }),
        ),
      );
    },
  };
}
