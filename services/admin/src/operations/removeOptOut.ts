import type { RequestHandler } from 'express';
import type { OptOuts } from '../opt-outs/opt-outs.js';

export function removeOptOut(
  optOuts: OptOuts,
): RequestHandler<{ account: string; msisdn: string }> {
  return async (req, res) => {
    await optOuts.remove(req.params.account, req.params.msisdn, req.requestId);
    res.status(204).end();
  };
}
