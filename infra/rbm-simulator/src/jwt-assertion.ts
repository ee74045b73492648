import { createPublicKey, type KeyObject, verify } from 'node:crypto';

export const RBM_SCOPE = 'https://www.googleapis.com/auth/rcsbusinessmessaging';
/** Google's token URL: client libraries put it in `aud` even when they post elsewhere. */
export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
/** Google refuses assertions valid for more than an hour. */
const MAX_LIFETIME_S = 3600;
const CLOCK_SKEW_S = 300;

export interface ServiceAccount {
  clientEmail: string;
  publicKey: KeyObject;
}

/** Accepts the key file's private key (its public half is derived) or a public key PEM. */
export function serviceAccountFrom(clientEmail: string, pem: string): ServiceAccount {
  return { clientEmail, publicKey: createPublicKey(pem) };
}

function part(segment: string | undefined): Record<string, unknown> | undefined {
  if (!segment) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Checks a JWT bearer assertion (RFC 7523) as Google's token endpoint does: RS256 signed by the
 * service account's key, issued by its email, for the RBM scope, addressed to a token URL, and
 * within its lifetime. Returns why not, or undefined when it is good.
 */
export function assertionProblem(
  assertion: string,
  account: ServiceAccount,
  acceptedAudiences: readonly string[],
  nowS: number,
): string | undefined {
  const [header, payload, signature, ...rest] = assertion.split('.');
  const head = part(header);
  const claims = part(payload);
  if (rest.length > 0 || !head || !claims || !signature) return 'assertion: not a JWT';
  if (head.alg !== 'RS256') return 'assertion: alg must be RS256';
  const signed = verify(
    'RSA-SHA256',
    Buffer.from(`${header}.${payload}`),
    account.publicKey,
    Buffer.from(signature, 'base64url'),
  );
  if (!signed) return 'assertion: invalid signature';
  if (claims.iss !== account.clientEmail) return 'assertion: unknown issuer';
  const scopes = typeof claims.scope === 'string' ? claims.scope.split(' ') : [];
  if (!scopes.includes(RBM_SCOPE)) return `assertion: scope must include ${RBM_SCOPE}`;
  if (typeof claims.aud !== 'string' || !acceptedAudiences.includes(claims.aud)) {
    return 'assertion: wrong audience';
  }
  const { iat, exp } = claims;
  if (typeof iat !== 'number' || typeof exp !== 'number') return 'assertion: iat and exp required';
  if (exp - iat > MAX_LIFETIME_S) return 'assertion: lifetime over one hour';
  if (exp < nowS - CLOCK_SKEW_S || iat > nowS + CLOCK_SKEW_S)
    return 'assertion: expired or not yet valid';
  return undefined;
}
