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
