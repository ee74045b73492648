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
 * Text-to-voice simple HTTP interface (`/txt2voice/v1/sendtts`): "for migration and will
 * eventually be deprecated; new integrations use POST /v1/messages" (spec 4.6, 9). Marked
 * deprecated from the release that built the REST interface, as the issue asks.
 */
export const VOICE_LEGACY_DEPRECATION: Deprecation = {
  since: '2026-11-24T00:00:00Z',
  successor: '/txt2voice/v1/messages',
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
