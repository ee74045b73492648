import { createHash, timingSafeEqual } from 'node:crypto';
import { UnauthorizedError } from '@msg/http';
import type { RequestHandler } from 'express';

const digest = (s: string) => createHash('sha256').update(s).digest();

export interface ServiceTokenOptions {
  /** Realm of the Bearer challenge sent with the 401. */
  realm: string;
  /** The 401's message. */
  message: string;
}

/**
 * `Authorization: Bearer <token>` with one configured secret: the operator's admin token, the
 * numbers service's internal token. Compared in constant time (digests, so the length is not
 * revealed either). Without a configured token every call is refused.
 */
export function requireServiceToken(
  token: string | undefined,
  { realm, message }: ServiceTokenOptions,
): RequestHandler {
  const expected = token ? digest(token) : undefined;
  return (req, _res, next) => {
    const presented = /^Bearer +(\S+) *$/i.exec(req.get('authorization') ?? '')?.[1];
    const ok = expected !== undefined && presented !== undefined;
    if (ok && timingSafeEqual(digest(presented), expected)) return next();
    next(new UnauthorizedError(message, `Bearer realm="${realm}"`));
  };
}
