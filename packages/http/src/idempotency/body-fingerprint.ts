import { createHash, type Hash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { RequestFingerprint } from './idempotency-store.js';

/**
 * The sha256 of a request body's bytes as they arrive (before any Content-Encoding is undone),
 * computed while whoever reads the body reads it: the JSON parser, or a route that streams a
 * 32 MB gzip upload. Nothing is buffered and the stream's flow is not changed: `emit` is wrapped,
 * so every 'data' chunk is hashed on its way to the listeners, whichever way they read.
 */
export class BodyFingerprint {
  private readonly hash: Hash = createHash('sha256');
  private digest: string | undefined;
  bytes = 0;

  constructor(req: Readable) {
    const emit = req.emit;
    const tap = (event: string | symbol, chunk: unknown) => {
      if (event === 'data' && this.digest === undefined && Buffer.isBuffer(chunk)) {
        this.hash.update(chunk);
        this.bytes += chunk.length;
      } else if (event === 'end' && this.digest === undefined) {
        this.digest = this.hash.digest('hex');
      }
    };
    req.emit = function (this: Readable, event: string | symbol, ...args: unknown[]) {
      tap(event, args[0]);
      return emit.call(this, event, ...args);
    } as Readable['emit'];
  }

  /** The whole body was read (its 'end' passed). */
  get complete(): boolean {
    return this.digest !== undefined;
  }

  /** The fingerprint of the whole body; undefined until it was read to its end. */
  result(): RequestFingerprint | undefined {
    return this.digest === undefined
      ? undefined
      : { fingerprint: this.digest, bodyBytes: this.bytes };
  }

  /**
   * Reads the rest of the body nobody else will read, hashing it. Stops (and leaves the request
   * paused) as soon as more than `maxBytes` arrived: 'tooLong'.
   */
  readRest(req: Readable, maxBytes: number): Promise<'complete' | 'tooLong'> {
    if (this.complete) return Promise.resolve(this.bytes > maxBytes ? 'tooLong' : 'complete');
    return new Promise((resolve, reject) => {
      const done = () => {
        req.off('data', onData);
        req.off('end', onEnd);
        req.off('error', onError);
        req.off('close', onClose);
      };
      const onData = () => {
        if (this.bytes <= maxBytes) return;
        done();
        req.pause();
        resolve('tooLong');
      };
      const onEnd = () => {
        done();
        resolve(this.bytes > maxBytes ? 'tooLong' : 'complete');
      };
      const onError = (err: Error) => {
        done();
        reject(err);
      };
      // A client that hangs up mid-body may close the request without an error.
      const onClose = () => {
        if (this.complete) return;
        done();
        reject(new Error('the client closed the connection before the body ended'));
      };
      req.on('data', onData);
      req.on('end', onEnd);
      req.on('error', onError);
      req.on('close', onClose);
    });
  }
}
