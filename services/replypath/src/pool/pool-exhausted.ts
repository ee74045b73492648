import { HttpError } from '@msg/http';

/**
 * Every enabled number of the pool is held (reserved or quarantined) for this recipient, or the
 * pool has no enabled number. A 429 the client can act on: `Retry-After` says when the first of
 * those numbers becomes free (spec 8.2 allows 429 for what the client should retry later).
 */
export class PoolExhaustedError extends HttpError {
  constructor(
    readonly retryAfterSeconds: number,
    message = 'No reply-path number is free for this recipient now; retry after Retry-After seconds',
  ) {
    super(429, 'POOL_EXHAUSTED', message, [], {
      'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))),
    });
  }
}

/** Retry-After when no enabled number exists at all: nothing frees up by itself. */
export const EMPTY_POOL_RETRY_SECONDS = 60;
