import type { RequestHandler } from 'express';

/** GET /txt2voice/v1/health — the interface answers (spec 4.6: `status` equal to `ok`). */
export function getHealth(): RequestHandler {
  return (_req, res) => {
    res.json({ status: 'ok' });
  };
}
