/**
 * URLs a client gives us to call back (batch events, SMS status callbacks, account report URLs,
 * webhooks to come). Every such field is declared `format: callback-url` in its OpenAPI document;
 * openapiValidation registers CLIENT_URL_FORMAT with the validator, and a route that reads its
 * body itself calls isClientUrl, so all of them accept exactly the same URLs.
 */
export const CLIENT_URL_FORMAT = 'callback-url';

/** The longest URL browsers and proxies reliably carry (and the longest any document allows). */
export const MAX_CLIENT_URL_LENGTH = 2083;

// Whitespace (any Unicode space, CR, LF, tab), control characters and lone surrogates: a URL
// holding one could split a header line or be read differently by the next parser downstream.
const FORBIDDEN_CHARACTER = /[\s\p{Cc}\p{Cs}]/u;
// WHATWG parsing is lenient ("http:host", "http:\\host"); what we store is what the client wrote,
// so the text itself must already start the way an absolute http(s) URL does.
const ABSOLUTE_HTTP = /^https?:\/\/[^/?#\\]/i;

/**
 * True for an absolute http or https URL with a host, no credentials in it (they would be logged
 * and stored in clear), no whitespace or control characters, and at most MAX_CLIENT_URL_LENGTH
 * characters. Whether the host is private is the notifier's decision at delivery time, by config.
 */
export function isClientUrl(text: string): boolean {
  if (text.length > MAX_CLIENT_URL_LENGTH) return false;
  if (FORBIDDEN_CHARACTER.test(text) || !ABSOLUTE_HTTP.test(text)) return false;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  return (
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    url.hostname !== '' &&
    url.username === '' &&
    url.password === ''
  );
}
