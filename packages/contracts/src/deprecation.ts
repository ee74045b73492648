/** A deprecated interface (specification part 9): since when, and the operation replacing it. */
export interface Deprecation {
  /** The moment it was deprecated (ISO 8601, UTC). */
  since: string;
  /** Path of the successor operation. */
  successor: string;
}

/**
 * Legacy reply-path: "deprecated; will be removed in a future release; the current reply-path
 * interface replaces it" (spec 9). Deprecated with the release that built the current one.
 */
export const REPLYPATH_LEGACY_DEPRECATION: Deprecation = {
  since: '2026-11-24T00:00:00Z',
  successor: '/replypath/v1/sendsms',
};

/**
 * The headers every answer of a deprecated interface carries: `Deprecation` in RFC 9745's form
 * (`@` and Unix seconds, a structured-field date) and a `Link` to the successor (RFC 8288,
 * relation `successor-version`, RFC 5829).
 */
export function deprecationHeaders({ since, successor }: Deprecation): Record<string, string> {
  const seconds = Math.floor(Date.parse(since) / 1000);
  return {
    Deprecation: `@${seconds}`,
    Link: `<${successor}>; rel="successor-version"`,
  };
}
