import type { RequestHandler } from 'express';

/** GET /v1/health/batches — the batch interface's own health answer (specification 4.2). */
export function getBatchHealth(): RequestHandler {
  return (_req, res) => {
    res.json({ status: 'OK' });
  };
}
