import { createHash, timingSafeEqual } from 'node:crypto';
import { UnauthorizedError } from '@msg/http';
import type { RequestHandler } from 'express';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Only callers presenting the operator token may use the internal API. Compared in constant time. */
export function requireAdminToken(token: string): RequestHandler {
  const expected = digest(token);
  return (req, _res, next) => {
    const header = req.get('authorization') ?? '';
    const presented = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
    if (presented && timingSafeEqual(digest(presented), expected)) return next();
    next(new UnauthorizedError('a valid admin token is required', 'Bearer realm="admin"'));
  };
}
