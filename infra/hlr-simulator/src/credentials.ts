import { timingSafeEqual } from 'node:crypto';

export class CredentialSyntaxError extends Error {
  override name = 'CredentialSyntaxError';
}

export interface BasicCredentials {
  user: string;
  password: string;
}

/** Parses `user:pass`; the password is everything after the first colon. */
export function parseCredentials(text: string): BasicCredentials {
  const colon = text.indexOf(':');
  if (colon < 1) throw new CredentialSyntaxError('expected user:password');
  return { user: text.slice(0, colon), password: text.slice(colon + 1) };
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** True when an Authorization header carries exactly these Basic credentials. */
export function matchesBasic(header: string | undefined, expected: BasicCredentials): boolean {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(header?.trim() ?? '');
  if (!match?.[1]) return false;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return false;
  // Both compared every time, so the answer time does not tell which part was wrong.
  const userOk = sameText(decoded.slice(0, colon), expected.user);
  const passwordOk = sameText(decoded.slice(colon + 1), expected.password);
  return userOk && passwordOk;
}
