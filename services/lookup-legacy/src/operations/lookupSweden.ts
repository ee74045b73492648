import type { RequestHandler } from 'express';
import type { Lookup } from '../lookup/lookup.js';

/** GET /v1/lookup/sweden/{msisdn} */
export function lookupSweden(lookup: Lookup): RequestHandler<{ msisdn: string }> {
  return async (req, res) => {
    res.json(await lookup.sweden(req.params.msisdn));
  };
}
