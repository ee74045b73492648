import { timingSafeEqual } from 'node:crypto';
import { UnauthorizedError } from '@msg/http';
import type { RequestHandler } from 'express';

/**
 * The document's internalBearer: `Authorization: Bearer <NUMBERS_INTERNAL_TOKEN>`, compared in
 * constant time. Without a configured token every call is refused.
 */
export function internalAccess(token: string | undefined): RequestHandler {
  const expected = token ? Buffer.from(token) : undefined;
  return (req, _res, next) => {
    const match = /^Bearer +(\S+) *$/i.exec(req.headers.authorization ?? '');
    const given = match?.[1] ? Buffer.from(match[1]) : undefined;
    const ok =
      expected !== undefined &&
      given !== undefined &&
      given.length === expected.length &&
      timingSafeEqual(given, expected);
    next(
      ok
        ? undefined
        : new UnauthorizedError('Missing or invalid token', 'Bearer realm="numbers-internal"'),
    );
  };
}
