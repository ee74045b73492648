import type { RequestHandler } from 'express';

/** GET /replypath/v1/health — the interface answers (spec 4.3: `status` equal to `OK`). */
export function getHealth(): RequestHandler {
  return (_req, res) => {
    res.json({ status: 'OK' });
  };
}
