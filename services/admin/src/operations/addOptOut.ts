import type { RequestHandler } from 'express';
import type { OptOuts } from '../opt-outs/opt-outs.js';

export function addOptOut(optOuts: OptOuts): RequestHandler<{ account: string; msisdn: string }> {
  return async (req, res) => {
    res.json(await optOuts.add(req.params.account, req.params.msisdn, req.requestId));
  };
}
