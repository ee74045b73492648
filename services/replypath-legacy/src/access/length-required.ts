import { HttpError } from '@msg/http';
import type { RequestHandler } from 'express';

export const LENGTH_REQUIRED = {
  noLength:
    'POST needs a body with Content-Length; a body without one (chunked transfer coding) is not accepted',
  empty: 'POST needs a body: a JSON object with To and Msg',
} as const;

const lengthRequired = (message: string) => new HttpError(411, 'LENGTH_REQUIRED', message);

/**
 * Spec 7.3: "411 POST without body or without Content-Length". A chunked body carries no
 * Content-Length (RFC 9112 §6.2: the two exclude each other), so it is refused too, even though
 * the body parser has read it by now; `Content-Length: 0` is a POST without a body. GET passes.
 */
export const requireContentLength: RequestHandler = (req, _res, next) => {
  if (req.method !== 'POST') {
    next();
    return;
  }
  const length = req.headers['content-length'];
  if (length === undefined || req.headers['transfer-encoding'] !== undefined) {
    next(lengthRequired(LENGTH_REQUIRED.noLength));
    return;
  }
  next(Number(length) > 0 ? undefined : lengthRequired(LENGTH_REQUIRED.empty));
};
