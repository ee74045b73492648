import { posix } from 'node:path';
import { type Deprecation, REPLYPATH_LEGACY_DEPRECATION } from '@msg/contracts';
/**
 * THE routing table of the platform: which service owns each public path prefix. Paths are
 * forwarded unchanged (no prefix stripping): every service owns its full public paths, as its
 * OpenAPI document in @msg/contracts spells them.
 *
 * admin is deliberately absent: it is internal only, and nothing here can route to it.
 */

/** Services behind the gateway. Each has an UPSTREAM_<SERVICE> setting (config.ts). */
export const UPSTREAM_SERVICES = [
  'sms',
  'batch',
  'replypath',
  'replypath-legacy',
  'rcs',
  'voice',
  'numbers',
  'lookup-legacy',
  'notifier',
] as const;

export type UpstreamService = (typeof UPSTREAM_SERVICES)[number];

/**
 * How the gateway renders the errors it produces itself (413, 502, 504) on a route: in that
 * interface's own format. Number intelligence answers `application/problem+json` (spec 7.6), the
 * legacy reply-path `{ status, message }` with the status line (spec 7.3), text-to-voice
 * `{ detail: [{loc, msg, type}] }`, its simple HTTP interface (/txt2voice/v1/sendtts)
 * `request=false&error=...` (spec 7.5); every other interface
 * behind the gateway accepts `{ code, message, details }`.
 */
export type ErrorStyle = 'json' | 'problem' | 'status-line' | 'detail';

export interface PublicRoute {
  /** Matched on whole segments: '/v1/sms' matches '/v1/sms' and '/v1/sms/send', not '/v1/smsx'. */
  readonly prefix: string;
  readonly service: UpstreamService;
  readonly errors: ErrorStyle;
  /**
   * Set on routes whose path segments carry personal data (phone numbers, message text): the
   * access log keeps these literal words and masks every other segment after the prefix.
   */
  readonly loggedWords?: readonly string[];
  /** A deprecated interface: the gateway's own errors carry its Deprecation and Link headers too. */
  readonly deprecation?: Deprecation;
}

export const ROUTES: readonly PublicRoute[] = [
  { prefix: '/v1/sms', service: 'sms', errors: 'json' },
  { prefix: '/v1/batches', service: 'batch', errors: 'json' },
  { prefix: '/v1/oauth/token', service: 'batch', errors: 'json' },
  { prefix: '/v1/health/batches', service: 'batch', errors: 'json' },
  { prefix: '/replypath/v1', service: 'replypath', errors: 'json' },
  // GET /v1/replypath/sendsms/{to}/{msg}: recipient and message text in the path.
  {
    prefix: '/v1/replypath',
    service: 'replypath-legacy',
    errors: 'status-line',
    loggedWords: ['sendsms', 'health'],
    deprecation: REPLYPATH_LEGACY_DEPRECATION,
  },
  // Testers are addressed by phone number. POST /rcs/v1/rbm/events is RBM's push to the
  // service (no client credentials: rcs checks X-Goog-Signature over the body, forwarded
  // byte for byte like every body).
  {
    prefix: '/rcs/v1',
    service: 'rcs',
    errors: 'json',
    loggedWords: [
      'messages',
      'capability',
      'capabilities',
      'testers',
      'webhooks',
      'health',
      'live',
      'ready',
      'rbm',
      'events',
    ],
  },
  // Webhook ids are UUIDs, no personal data: logged as they are.
  { prefix: '/v1/webhooks', service: 'rcs', errors: 'json' },
  { prefix: '/txt2voice', service: 'voice', errors: 'detail' },
  // GET /v1/numbers/{number}[/porting-history|/live-status]
  {
    prefix: '/v1/numbers',
    service: 'numbers',
    errors: 'problem',
    loggedWords: ['porting-history', 'live-status', 'health'],
  },
  // The account's callback signing secret (get, rotate): the notifier signs every callback.
  { prefix: '/v1/callbacks', service: 'notifier', errors: 'json' },
  // GET /v1/lookup/{sweden|basic|advanced}/{msisdn}
  {
    prefix: '/v1/lookup',
    service: 'lookup-legacy',
    errors: 'json',
    loggedWords: ['sweden', 'basic', 'advanced', 'health'],
  },
];

// Longest prefix first, so a more specific prefix added later wins over a shorter one.
const BY_SPECIFICITY = [...ROUTES].sort((a, b) => b.prefix.length - a.prefix.length);

/**
 * `path` with empty and dot segments resolved ('/v1//numbers/x' and '/v1/x/../numbers/x' are
 * '/v1/numbers/x'): what a route is matched on.
 */
export function routingPath(path: string): string {
  return posix.normalize(path);
}

/**
 * True when `path` has empty or dot segments. Such a path is no operation of any interface: the
 * proxy would collapse '//' on the way (http-proxy's urlJoin) and so answer another operation
 * ('/v1/numbers//porting-history' would become a lookup of the number "porting-history").
 */
export function hasUnresolvedSegments(path: string): boolean {
  return routingPath(path) !== path;
}

/**
 * The route owning `path` (no query string), or undefined when no public interface lives there.
 * A path with empty or dot segments still belongs to an interface, so that it is refused in that
 * interface's error format: the one its segments name as written ('/v1//numbers/..' is numbers'),
 * else the one they resolve to ('/v1/x/../numbers/1' is numbers').
 */
export function matchRoute(path: string): PublicRoute | undefined {
  return routeOf(path.replace(/\/{2,}/g, '/')) ?? routeOf(routingPath(path));
}

function routeOf(path: string): PublicRoute | undefined {
  return BY_SPECIFICITY.find(
    (route) => path === route.prefix || path.startsWith(`${route.prefix}/`),
  );
}

/**
 * Requests allowed the large body limit (BATCH_BODY_LIMIT): only batch create, whose gzip body
 * may be up to 32 MB (spec 8.1). Everything else gets BODY_LIMIT.
 */
const LARGE_BODY_REQUESTS: readonly { method: string; path: string }[] = [
  { method: 'POST', path: '/v1/batches' },
];

export function takesLargeBody(method: string, path: string): boolean {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return LARGE_BODY_REQUESTS.some((r) => r.method === method && r.path === trimmed);
}

const MASK = ':redacted';

/**
 * The path as the access log may show it: on routes with personal data in the path, segments
 * after the prefix that are not known literal words are masked. Never includes the query string
 * (legacy interfaces carry passwords there); callers pass the path only.
 */
export function loggablePath(path: string, route: PublicRoute | undefined): string {
  const words = route?.loggedWords;
  if (!route || !words) return path;
  // Sliced from the form the route was matched on (matchRoute), or a number could leak.
  const collapsed = path.replace(/\/{2,}/g, '/');
  const matched = routeOf(collapsed) === route ? collapsed : routingPath(path);
  const rest = matched.slice(route.prefix.length);
  const masked = rest
    .split('/')
    .map((segment) => (segment === '' || words.includes(segment) ? segment : MASK))
    .join('/');
  return `${route.prefix}${masked}`;
}
