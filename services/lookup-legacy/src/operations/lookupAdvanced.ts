import type { RequestHandler } from 'express';
import type { Lookup } from '../lookup/lookup.js';

/** GET /v1/lookup/advanced/{msisdn} */
export function lookupAdvanced(lookup: Lookup): RequestHandler<{ msisdn: string }> {
  return async (req, res) => {
    res.json(await lookup.advanced(req.params.msisdn));
  };
}
