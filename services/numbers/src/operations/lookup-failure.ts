import { HttpError, UpstreamUnavailableError } from '@msg/http';
import { isDatabaseOutage } from '../errors.js';

/** Seconds a client should wait after a 503 service-unavailable. */
export const SERVICE_RETRY_AFTER_SECONDS = 5;

/**
 * A lookup failure as the interface shows it: our own errors as they are, a database outage as
 * 503 service-unavailable (retry shortly); anything else stays unknown (500).
 */
export function translateLookupFailure(error: unknown): unknown {
  if (error instanceof HttpError) return error;
  if (isDatabaseOutage(error)) {
    return new UpstreamUnavailableError(
      'The lookup cannot be completed now; try again shortly',
      SERVICE_RETRY_AFTER_SECONDS,
    );
  }
  return error;
}
