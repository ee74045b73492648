import { requireAccount } from '@msg/auth';
import type { Sql } from '@msg/db';
import { NotFoundError } from '@msg/http';
import type { RequestHandler } from 'express';
import { findBatch } from '../batches/batch-row.js';
import { toSummary } from '../batches/summary.js';
import { TOKEN_REQUIRED } from './token-required.js';

/** GET /v1/batches/{batch_id}/poll: the summary now. */
export function pollBatch(sql: Sql): RequestHandler<{ batch_id: string }> {
  return async (req, res) => {
    const row = await findBatch(sql, requireAccount(req, TOKEN_REQUIRED).id, req.params.batch_id);
    if (!row) throw new NotFoundError(`batch ${req.params.batch_id} not found`);
    res.json({ timestamp: new Date().toISOString(), batch_status_summary: toSummary(row) });
  };
}
