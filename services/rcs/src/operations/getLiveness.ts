import type { RequestHandler } from 'express';

/** GET /rcs/v1/health/live — the process answers (spec 4.5: `{message, status}`). */
export function getLiveness(): RequestHandler {
  return (_req, res) => {
    res.json({ message: 'RCS service is alive', status: 'ok' });
  };
}
