import { randomUUID } from 'node:crypto';

/**
 * An incoming X-Request-Id is kept when it looks like an id (so a caller or the load balancer
 * can correlate), and replaced otherwise: it is echoed to the client and written to every log
 * line of every service, so it must not carry arbitrary text or be unbounded. Same rule as the
 * services' request context in @msg/http, so the id the gateway forwards is the id they log.
 */
const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

export function requestIdFor(incoming: string | string[] | undefined): string {
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}
