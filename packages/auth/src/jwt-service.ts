import { randomUUID } from 'node:crypto';
import type { AccountState } from '@msg/contracts';
import jwt from 'jsonwebtoken';

export interface JwtKey {
  /** Key id, sent in the token header so verification picks the right key after a rotation. */
  kid: string;
  /** At least 32 bytes: HS256 is only as strong as its key. */
  secret: string;
}

export interface JwtServiceOptions {
  issuer: string;
  audience: string;
  /** Every key still accepted for verification; remove a key to invalidate its tokens. */
  keys: JwtKey[];
  /** The key that signs new tokens. */
  activeKid: string;
  ttlSeconds: number;
  /** Allowed clock skew between replicas when checking exp/nbf. */
  clockToleranceSeconds?: number;
  /** Milliseconds since the epoch; injectable for tests. */
  now?: () => number;
}

export interface TokenClaims {
  /** Account id. */
  sub: string;
  /** Account name. */
  name: string;
  /** Space-separated, as in OAuth 2.0; absent when the token was issued without scopes. */
  scope?: string;
  iss: string;
  aud: string;
  iat: number;
  exp: number;
  jti: string;
}

export interface IssuedToken {
  token: string;
  /** Seconds, as OAuth 2.0's `expires_in`. */
  expiresIn: number;
}

export interface JwtService {
  sign(account: Pick<AccountState, 'id' | 'name'>, options?: { scope?: string[] }): IssuedToken;
  /** The claims of a valid token; throws InvalidTokenError otherwise. */
  verify(token: string): TokenClaims;
}

export class InvalidTokenError extends Error {
  constructor(
    readonly reason: 'expired' | 'invalid',
    message: string,
  ) {
    super(message);
    this.name = 'InvalidTokenError';
  }
}

const ALGORITHM = 'HS256';
const MIN_SECRET_BYTES = 32;
// A real token is a few hundred bytes; anything huge is refused before it is parsed.
const MAX_TOKEN_LENGTH = 4096;

function validateOptions({
  keys,
  activeKid,
  ttlSeconds,
  issuer,
  audience,
}: JwtServiceOptions): void {
  if (!issuer || !audience) throw new Error('JWT issuer and audience are required');
  if (!Number.isInteger(ttlSeconds) || ttlSeconds <= 0)
    throw new Error('JWT ttlSeconds must be a positive integer');
  const kids = new Set<string>();
  for (const { kid, secret } of keys) {
    if (!kid) throw new Error('JWT key id must not be empty');
    if (kids.has(kid)) throw new Error(`JWT key id '${kid}' is configured twice`);
    if (Buffer.byteLength(secret, 'utf8') < MIN_SECRET_BYTES) {
      throw new Error(`JWT key '${kid}' is shorter than ${MIN_SECRET_BYTES} bytes`);
    }
    kids.add(kid);
  }
  if (!kids.has(activeKid))
    throw new Error(`JWT active key '${activeKid}' is not among the configured keys`);
}

function claimsFrom(payload: string | jwt.JwtPayload): TokenClaims {
  if (typeof payload === 'string')
    throw new InvalidTokenError('invalid', 'token payload is not a claims object');
  const { sub, name, scope, iss, aud, iat, exp, jti } = payload;
  // jsonwebtoken accepts a token without exp; ours always have one, so its absence means forgery.
  if (
    typeof sub !== 'string' ||
    typeof name !== 'string' ||
    typeof iss !== 'string' ||
    typeof aud !== 'string' ||
    typeof iat !== 'number' ||
    typeof exp !== 'number' ||
    typeof jti !== 'string' ||
    (scope !== undefined && typeof scope !== 'string')
  ) {
    throw new InvalidTokenError('invalid', 'token claims are incomplete');
  }
  return { sub, name, iss, aud, iat, exp, jti, ...(typeof scope === 'string' ? { scope } : {}) };
}

/**
 * The `kid` of the token's header, or undefined when the token cannot be decoded. jsonwebtoken's
 * decode throws (a SyntaxError, not a JsonWebTokenError) when the header says `typ: JWT` and the
 * payload is not JSON: garbage from a client must end as InvalidTokenError, never escape as a 500.
 */
function keyIdOf(token: string): string | undefined {
  try {
    const kid = jwt.decode(token, { complete: true })?.header.kid;
    return typeof kid === 'string' && kid !== '' ? kid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * HS256 access tokens for the batch interface's client-credentials flow. The algorithm is pinned
 * (no `none`, no RS/HS confusion) and the key is chosen by the `kid` header, so keys rotate by
 * adding a new key, making it active, and removing the old one after one token lifetime.
 */
export function createJwtService(options: JwtServiceOptions): JwtService {
  validateOptions(options);
  const {
    issuer,
    audience,
    activeKid,
    ttlSeconds,
    clockToleranceSeconds = 5,
    now = Date.now,
  } = options;
  const secrets = new Map(
    options.keys.map(({ kid, secret }) => [kid, Buffer.from(secret, 'utf8')]),
  );
  const nowSeconds = () => Math.floor(now() / 1000);

  return {
    sign(account, { scope } = {}) {
      const secret = secrets.get(activeKid);
      if (!secret) throw new Error('active JWT key missing');
      const iat = nowSeconds();
      const payload = {
        sub: account.id,
        name: account.name,
        ...(scope && scope.length > 0 ? { scope: scope.join(' ') } : {}),
        iat,
        exp: iat + ttlSeconds,
        jti: randomUUID(),
      };
      const token = jwt.sign(payload, secret, {
        algorithm: ALGORITHM,
        keyid: activeKid,
        issuer,
        audience,
      });
      return { token, expiresIn: ttlSeconds };
    },

    verify(token) {
      if (token.length > MAX_TOKEN_LENGTH) throw new InvalidTokenError('invalid', 'token too long');
      const kid = keyIdOf(token);
      if (!kid) throw new InvalidTokenError('invalid', 'token is malformed or has no key id');
      const secret = secrets.get(kid);
      if (!secret) throw new InvalidTokenError('invalid', 'token signed with an unknown key');
      try {
        const payload = jwt.verify(token, secret, {
          algorithms: [ALGORITHM],
          issuer,
          audience,
          clockTolerance: clockToleranceSeconds,
          clockTimestamp: nowSeconds(),
        });
        return claimsFrom(payload);
      } catch (err) {
        if (err instanceof InvalidTokenError) throw err;
        if (err instanceof jwt.TokenExpiredError)
          throw new InvalidTokenError('expired', 'token expired');
        throw new InvalidTokenError('invalid', 'token invalid');
      }
    },
  };
}
