import { bareHost, isPrivateHost, type TargetPolicy } from '@msg/webhooks/private-address';

// The services give their policy to createService and isClientUrl: they see it here.
export type { TargetPolicy };

/**
 * URLs a client gives us to call back (batch events, SMS status callbacks, account report URLs,
 * RCS webhooks). Every such field is declared `format: callback-url` in its OpenAPI document;
 * openapiValidation registers CLIENT_URL_FORMAT with the validator, and a route that reads its
 * body itself calls isClientUrl, so all of them accept exactly the same URLs.
 */
export const CLIENT_URL_FORMAT = 'callback-url';

/** The longest URL browsers and proxies reliably carry (and the longest any document allows). */
export const MAX_CLIENT_URL_LENGTH = 2083;

/** The default: private targets refused when the client gives the URL. */
export const PUBLIC_TARGETS_ONLY: TargetPolicy = Object.freeze({ allowPrivateTargets: false });

/**
 * For a URL read back at delivery (a stored callback_url, an account's report URL): it was judged
 * when given, and where it points now is the callback sender's decision, made on the addresses
 * the connection uses (createTargetGuard of @msg/webhooks).
 */
export const ANY_TARGET: TargetPolicy = Object.freeze({ allowPrivateTargets: true });

// RFC 3986 as text: unreserved (ALPHA DIGIT - . _ ~), reserved (gen-delims : / ? # [ ] @ and
// sub-delims ! $ & ' ( ) * + , ; =) and percent-encodings of two hex digits; nothing else. That
// leaves out every control (C0, DEL, C1), space, every non-ASCII character (bidi overrides,
// zero-width characters, U+FFFF, lone surrogates) and `"<>\^`{|}` — a URL holding one could split
// a header line, read differently in the next parser downstream, or show one thing to an account
// and call another. Internationalised names come as punycode (`xn--...`).
const RFC3986_URI = /^(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})+$/;
// WHATWG parsing is lenient ("http:host", "http:\\host"); what we store is what the client wrote,
// so the text itself must already start the way an absolute http(s) URL does.
const ABSOLUTE_HTTP = /^https?:\/\/[^/?#\\]/i;

/**
 * True for a valid RFC 3986 URI that is an absolute http or https URL with a host, no
 * credentials in it (they would be logged and stored in clear), at most MAX_CLIENT_URL_LENGTH
 * characters, and — unless the policy allows private targets — a host that is not private on
 * its face (see isPrivateHost; names that need DNS are judged at delivery).
 */
export function isClientUrl(text: string, policy: TargetPolicy = PUBLIC_TARGETS_ONLY): boolean {
  if (text.length > MAX_CLIENT_URL_LENGTH) return false;
  if (!RFC3986_URI.test(text) || !ABSOLUTE_HTTP.test(text)) return false;
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
    url.password === '' &&
    (policy.allowPrivateTargets || isTrusted(policy, url.hostname) || !isPrivateHost(url.hostname))
  );
}

function isTrusted(policy: TargetPolicy, hostname: string): boolean {
  const host = bareHost(hostname);
  return (policy.allowedHosts ?? []).some((trusted) => bareHost(trusted) === host);
}

/** Says in a field's error message what isClientUrl refused, in the words of its documents. */
export function clientUrlRule(policy: TargetPolicy): string {
  return policy.allowPrivateTargets
    ? 'must be an absolute http or https URL of RFC 3986 characters (ASCII; names as punycode), with a host and without credentials'
    : 'must be an absolute http or https URL of RFC 3986 characters (ASCII; names as punycode), with a public host and without credentials';
}
