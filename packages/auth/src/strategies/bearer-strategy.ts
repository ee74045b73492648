import type passport from 'passport';
import { Strategy as BearerStrategy, type VerifyFunctionWithRequest } from 'passport-http-bearer';
import type { AccountLookup } from '../account-directory.js';
import { InvalidTokenError, type JwtService } from '../jwt-service.js';
import { normalizeFailures } from './failure-normalizer.js';

export interface BearerStrategyOptions {
  realm?: string;
}

function tokenFromHeader(header: string | undefined): string | undefined {
  return /^Bearer +(\S+) *$/i.exec(header ?? '')?.[1];
}

/**
 * `Authorization: Bearer <jwt>` issued by `JwtService`. The account is looked up afresh on every
 * request, so a disabled account or a changed permission applies before the token expires.
 *
 * Only the Authorization header is accepted: passport-http-bearer also reads `access_token` from
 * the query string and body, and tokens in URLs end up in access logs and proxies (RFC 6750 §5.3).
 */
export function bearerStrategy(
  jwt: JwtService,
  directory: AccountLookup,
  { realm = 'messaging' }: BearerStrategyOptions = {},
): passport.Strategy {
  const inner = new BearerStrategy<VerifyFunctionWithRequest>(
    { realm, passReqToCallback: true },
    (req, token, done) => {
      if (tokenFromHeader(req.headers.authorization) !== token) {
        done(null, false, { message: 'send the token in the Authorization header' });
        return;
      }
      try {
        const claims = jwt.verify(token);
        const account = directory.byId(claims.sub);
        if (!account) {
          done(null, false, { message: 'unknown account' });
          return;
        }
        done(null, account);
      } catch (err) {
        if (err instanceof InvalidTokenError) {
          done(null, false, {
            message: err.reason === 'expired' ? 'token expired' : 'token invalid',
          });
          return;
        }
        done(err);
      }
    },
  );
  return normalizeFailures(inner, {
    message: 'Missing or invalid bearer token',
    challenge: `Bearer realm="${realm}", error="invalid_token"`,
  });
}
