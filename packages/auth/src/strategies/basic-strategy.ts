import type passport from 'passport';
import { BasicStrategy } from 'passport-http';
import type { CredentialVerifier } from '../credential-verifier.js';
import { normalizeFailures } from './failure-normalizer.js';

export interface BasicStrategyOptions {
  /** Shown in `WWW-Authenticate: Basic realm="..."`. */
  realm?: string;
}

/**
 * Splits `Authorization: Basic <base64(user:password)>` at the FIRST colon (RFC 7617: the user id
 * cannot contain one, the password can). passport-http splits at every colon and passes only the
 * second piece, which would accept "secret:anything" for the password "secret" and reject real
 * passwords containing a colon; so the verify callback re-reads the header itself.
 */
export function parseBasicAuthorization(
  header: string | undefined,
): { name: string; password: string } | null {
  const match = /^Basic +([A-Za-z0-9+/]+={0,2}) *$/i.exec(header ?? '');
  const encoded = match?.[1];
  if (!encoded) return null;
  let decoded: string;
  try {
    // Fatal: replacing bad bytes with U+FFFD would let different byte strings pass as one password.
    decoded = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(encoded, 'base64'));
  } catch {
    return null;
  }
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  return { name: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** HTTP Basic: username = account name (case-insensitive), password exact. */
export function basicStrategy(
  verifier: CredentialVerifier,
  { realm = 'messaging' }: BasicStrategyOptions = {},
): passport.Strategy {
  const inner = new BasicStrategy(
    { realm, passReqToCallback: true },
    (req, _user, _password, done) => {
      const credentials = parseBasicAuthorization(req.headers.authorization);
      if (!credentials) {
        done(null, false);
        return;
      }
      verifier.verifyPassword(credentials.name, credentials.password).then(
        (account) => done(null, account ?? false),
        (err: unknown) => done(err),
      );
    },
  );
  return normalizeFailures(inner, {
    message: 'Missing or invalid credentials',
    challenge: `Basic realm="${realm}"`,
  });
}
