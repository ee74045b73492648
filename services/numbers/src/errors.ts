import { HttpError } from '@msg/http';

/** 429 `/quota-exceeded`: the monthly lookup quota is used up until the first of next month. */
export class QuotaExceededError extends HttpError {
  constructor(retryAfterSeconds: number, quota: number) {
    super(
      429,
      'QUOTA_EXCEEDED',
      `The monthly quota of ${quota} lookups is used up; it resets at the start of next month (UTC)`,
      [],
      { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
    );
  }
}

/** 503 `/provider-unavailable`: no data source can answer for the number's country now. */
export class ProviderUnavailableError extends HttpError {
  constructor(message: string, retryAfterSeconds = 60) {
    super(503, 'PROVIDER_UNAVAILABLE', message, [], { 'Retry-After': String(retryAfterSeconds) });
  }
}

/**
 * SQLSTATE classes that mean "the database cannot serve us now" rather than a bug: connection
 * exceptions (08), insufficient resources (53), operator intervention (57: shutdown, cancel),
 * lock not available (55P03), serialization failures (40001, 40P01).
 */
const UNAVAILABLE_SQLSTATE = /^(08|53|57)|^55P03$|^40001$|^40P01$/;
const UNAVAILABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE']);

/** Whether a database error is an outage (503 `/service-unavailable`) rather than a bug (500). */
export function isDatabaseOutage(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  const code = error.code;
  return (
    typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_ERRNO.has(code))
  );
}
