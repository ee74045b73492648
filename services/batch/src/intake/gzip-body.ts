import type { IncomingMessage } from 'node:http';
import { createGunzip } from 'node:zlib';
import {
  MalformedRequestError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '@msg/http';

export interface BodyLimits {
  /** Most compressed bytes read (BATCH_MAX_BODY_BYTES); more is 413. */
  maxBodyBytes: number;
  /** Most inflated bytes (BATCH_MAX_INFLATED_BYTES); more is 400 (decompression bomb). */
  maxInflatedBytes: number;
}

/** 415 unless the body is declared gzip-compressed, and nothing else. */
export function requireGzip(req: IncomingMessage): void {
  const encoding = req.headers['content-encoding']?.trim().toLowerCase();
  if (encoding !== 'gzip') {
    throw new UnsupportedMediaTypeError(
      `the batch body must be gzip-compressed JSON sent with Content-Encoding: gzip (got ${
        encoding ? `Content-Encoding: ${encoding}` : 'no Content-Encoding'
      })`,
    );
  }
}

/** 413 at once, before any byte is read, when Content-Length already says too much. */
export function refuseDeclaredOversize(req: IncomingMessage, { maxBodyBytes }: BodyLimits): void {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBodyBytes) throw tooLarge(maxBodyBytes);
}

/**
 * Most inflated bytes per compressed byte read so far, past {@link RATIO_FLOOR_BYTES}. Deflate
 * cannot exceed about 1032:1 (runs of one byte); a real batch compresses about 30:1 (the 1M
 * recipient bench body: 78 MB to 2.5 MB), very repetitive ones under 100:1. 200:1 leaves such
 * bodies room while a bomb (about 1000:1) is refused after some MB instead of at the 512 MiB total.
 */
export const MAX_INFLATE_RATIO = 200;
/** Inflated bytes always allowed whatever the ratio, so a tiny body is never refused by it. */
export const RATIO_FLOOR_BYTES = 1024 * 1024;

const bomb = (detail: string) =>
  ValidationError.field(['body'], 'maxInflatedBytes', `${detail} (decompression bomb)`);

const tooLarge = (max: number) =>
  new PayloadTooLargeError(`the compressed body is larger than ${max} bytes`);

/**
 * The inflated body as chunks, read only as fast as the consumer pulls them (the request is
 * paused while the gunzip buffer is full). Fails — and stops reading the request — with
 * 413 once more than maxBodyBytes compressed bytes arrived, 400 MALFORMED_REQUEST when the bytes
 * are not gzip, 400 when the body inflates past maxInflatedBytes or past MAX_INFLATE_RATIO times
 * the compressed bytes read so far (plus RATIO_FLOOR_BYTES), and with the transport error
 * when the client goes away. The request is never destroyed here, so an error can still be
 * answered; the caller closes the connection after answering when the body was not fully read.
 */
export async function* inflatedBody(
  req: IncomingMessage,
  { maxBodyBytes, maxInflatedBytes }: BodyLimits,
): AsyncGenerator<Buffer> {
  const gunzip = createGunzip();
  let compressed = 0;
  let failed = false;
  const fail = (err: Error) => {
    if (failed) return;
    failed = true;
    req.off('data', onData);
    req.pause();
    gunzip.destroy(err);
  };
  const onData = (chunk: Buffer) => {
    compressed += chunk.length;
    if (compressed > maxBodyBytes) {
      fail(tooLarge(maxBodyBytes));
      return;
    }
    if (!gunzip.write(chunk)) req.pause();
  };
  const onEnd = () => gunzip.end();
  const onError = (err: Error) => fail(err);
  const onClose = () => {
    if (!req.complete) fail(new Error('the client closed the connection before the body ended'));
  };
  gunzip.on('drain', () => {
    if (!failed) req.resume();
  });
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', onError);
  req.on('close', onClose);
  let inflated = 0;
  try {
    for await (const chunk of gunzip) {
      const buffer = chunk as Buffer;
      inflated += buffer.length;
      if (inflated > maxInflatedBytes) {
        throw bomb(`inflates to more than ${maxInflatedBytes} bytes`);
      }
      // `compressed` counts what was handed to gunzip, at most a buffer ahead of what it inflated.
      if (inflated > compressed * MAX_INFLATE_RATIO + RATIO_FLOOR_BYTES) {
        throw bomb(`inflates more than ${MAX_INFLATE_RATIO} times its compressed size`);
      }
      yield buffer;
    }
  } catch (err) {
    if (isZlibError(err)) throw new MalformedRequestError('body is not valid gzip');
    throw err;
  } finally {
    if (!failed && !req.complete) fail(new Error('body no longer read'));
    // The error listener stays: an abort after this point must not become an unhandled error.
    req.off('end', onEnd);
    req.off('close', onClose);
    gunzip.destroy();
  }
}

function isZlibError(err: unknown): boolean {
  const code = err instanceof Error ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' && code.startsWith('Z_');
}
