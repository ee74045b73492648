import type { AuthHeader, SipMessage } from 'sip';
import digest from 'sip/digest.js';

export interface DigestCredentials {
  username: string;
  password: string;
}

export const DIGEST_REALM = 'sip-callee';
/** How long a nonce we issued is accepted. */
const NONCE_LIFETIME_MS = 5 * 60_000;

const unquote = (value: string | undefined) =>
  value?.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;

/** The WWW-Authenticate header of a 401 (RFC 3261 22.4, RFC 2617 MD5 with qop=auth). */
export function digestChallenge(): AuthHeader {
  return {
    scheme: 'Digest',
    realm: `"${DIGEST_REALM}"`,
    nonce: `"${digest.generateNonce(DIGEST_REALM)}"`,
    algorithm: 'MD5',
    qop: '"auth"',
  };
}

function nonceIssuedAt(nonce: string): Date | undefined {
  try {
    return digest.extractNonceTimestamp(nonce, DIGEST_REALM) || undefined;
  } catch {
    // sip.js throws on a nonce whose timestamp part is not a date: not one of ours.
    return undefined;
  }
}

/**
 * True when the request carries an Authorization header for our realm whose response matches
 * the credentials, over a nonce we issued in the last five minutes. Nonces are stateless
 * (a timestamp signed with a per-process key), so no table of challenges is kept.
 */
export function isAuthorised(request: SipMessage, credentials: DigestCredentials): boolean {
  const answer = request.headers.authorization?.find(
    (header) => header.scheme.toLowerCase() === 'digest' && unquote(header.realm) === DIGEST_REALM,
  );
  if (!answer) return false;
  const nonce = unquote(answer.nonce) ?? '';
  const issued = nonceIssuedAt(nonce);
  if (!issued || Date.now() - issued.getTime() > NONCE_LIFETIME_MS) return false;
  if (unquote(answer.username) !== credentials.username) return false;
  const algorithm = unquote(answer.algorithm)?.toLowerCase();
  if (algorithm !== undefined && algorithm !== 'md5') return false;
  const qop = unquote(answer.qop)?.toLowerCase();
  if (qop !== undefined && qop !== 'auth') return false;
  const expected = digest.calculateDigest({
    ha1: digest.calculateUserRealmPasswordHash(
      credentials.username,
      DIGEST_REALM,
      credentials.password,
    ),
    method: request.method ?? '',
    uri: unquote(answer.uri) ?? '',
    nonce,
    nc: answer.nc,
    cnonce: unquote(answer.cnonce),
    qop,
  });
  return expected === unquote(answer.response)?.toLowerCase();
}
