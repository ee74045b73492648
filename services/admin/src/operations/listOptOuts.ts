import type { operations } from '@msg/contracts/internal/admin';
import type { RequestHandler } from 'express';
import type { OptOuts } from '../opt-outs/opt-outs.js';

type Query = NonNullable<operations['listOptOuts']['parameters']['query']>;

export function listOptOuts(
  optOuts: OptOuts,
): RequestHandler<{ account: string }, unknown, unknown, Query> {
  return async (req, res) => {
    // The validator has checked the query and applied the document's defaults.
    const { limit = 100, offset = 0 } = req.query;
    res.json(await optOuts.list(req.params.account, { limit, offset }));
  };
}
