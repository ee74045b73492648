import type { RequestHandler } from 'express';
import type { Lookup } from '../lookup/lookup.js';

/** GET /v1/lookup/basic/{msisdn} */
export function lookupBasic(lookup: Lookup): RequestHandler<{ msisdn: string }> {
  return async (req, res) => {
    res.json(await lookup.basic(req.params.msisdn));
  };
}
