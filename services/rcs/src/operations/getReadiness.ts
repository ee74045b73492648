import { checkReadiness, type ReadinessCheck } from '@msg/http';
import type { RequestHandler } from 'express';

/**
 * GET /rcs/v1/health/ready — 200 when every critical dependency (database, bus, account
 * directory: the kit's readiness checks; the RBM platform) is usable, else 503 with the same body shape naming
 * the failing ones.
 */
export function getReadiness(readiness: readonly ReadinessCheck[]): RequestHandler {
  return async (_req, res) => {
    const failing = (await checkReadiness(readiness)).filter(([, ok]) => !ok).map(([n]) => n);
    if (failing.length === 0) {
      res.json({ message: 'RCS service is ready', status: 'ok' });
      return;
    }
    res.status(503).json({ message: `Unavailable: ${failing.join(', ')}`, status: 'unavailable' });
  };
}
