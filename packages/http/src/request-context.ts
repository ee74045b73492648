import { randomUUID } from 'node:crypto';
import type { Logger } from '@msg/logger';
import type { RequestHandler } from 'express';

declare global {
  namespace Express {
    interface Request {
      /** The request's id: the caller's sane X-Request-Id, else a new uuid. Echoed in the response. */
      requestId: string;
      /**
       * Logger carrying requestId and service. After authentication a route may narrow it:
       * `req.log = req.log.child({ accountId })`.
       */
      log: Logger;
    }
  }
}

const REQUEST_ID_HEADER = 'X-Request-Id';
// Anything else (too long, spaces, control characters) could forge log lines or bloat them.
const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** Accepts the gateway's (or caller's) request id when sane, so one id follows a request across services. */
export function requestContext(service: string, logger: Logger): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get(REQUEST_ID_HEADER);
    const requestId =
      incoming !== undefined && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    req.requestId = requestId;
    req.log = logger.child({ requestId, service });
    res.setHeader(REQUEST_ID_HEADER, requestId);
    next();
  };
}
