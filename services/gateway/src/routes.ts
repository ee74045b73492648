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
] as const;

export type UpstreamService = (typeof UPSTREAM_SERVICES)[number];

/**
 * How the gateway renders the errors it produces itself (413, 502, 504) on a route: in that
 * interface's own format. Number intelligence answers `application/problem+json` (spec 7.6);
 * every other interface behind the gateway accepts `{ code, message, details }`.
 */
export type ErrorStyle = 'json' | 'problem';

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
    errors: 'json',
    loggedWords: ['sendsms', 'health'],
  },
  // Testers are addressed by phone number.
  {
    prefix: '/rcs/v1',
    service: 'rcs',
    errors: 'json',
    loggedWords: ['messages', 'capability', 'testers', 'webhooks', 'health', 'live', 'ready'],
  },
  { prefix: '/v1/webhooks', service: 'rcs', errors: 'json' },
  { prefix: '/txt2voice', service: 'voice', errors: 'json' },
  // GET /v1/numbers/{number}[/porting-history|/live-status]
  {
    prefix: '/v1/numbers',
    service: 'numbers',
    errors: 'problem',
    loggedWords: ['porting-history', 'live-status', 'health'],
  },
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
 * The route owning `path` (no query string), or undefined when no public interface lives there.
 * Empty segments do not count ('/v1//numbers/x' is numbers'): the path still reaches the service
 * unchanged, so that service, not the gateway, answers it in its own error format.
 */
export function matchRoute(path: string): PublicRoute | undefined {
  const normal = path.replace(/\/{2,}/g, '/');
  return BY_SPECIFICITY.find(
    (route) => normal === route.prefix || normal.startsWith(`${route.prefix}/`),
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
  // Matched with empty segments dropped (matchRoute): sliced the same way, or a number leaks.
  const rest = path.replace(/\/{2,}/g, '/').slice(route.prefix.length);
  const masked = rest
    .split('/')
    .map((segment) => (segment === '' || words.includes(segment) ? segment : MASK))
    .join('/');
  return `${route.prefix}${masked}`;
}
