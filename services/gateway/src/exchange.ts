import type { ClientRequest } from 'node:http';
import type { PublicRoute } from './routes.js';

/** What the gateway knows about one request while it is in flight. */
export interface Exchange {
  readonly requestId: string;
  readonly startedAt: bigint;
  /** Metric and log label: the upstream service, or who answered instead. */
  upstream: string;
  route?: PublicRoute;
  /** The request to the upstream, once it has a socket. */
  proxyReq?: ClientRequest;
  /** The upstream did not answer within UPSTREAM_TIMEOUT_MS. */
  timedOut: boolean;
  /** The body grew past the route's limit and the gateway answered 413 itself. */
  cutOff: boolean;
}
