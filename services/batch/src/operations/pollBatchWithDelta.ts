import { requireAccount } from '@msg/auth';
import type { operations } from '@msg/contracts/batch';
import type { Sql } from '@msg/db';
import { NotFoundError } from '@msg/http';
import type { RequestHandler } from 'express';
import { findBatch } from '../batches/batch-row.js';
import { readDelta } from '../batches/delta.js';
import { toSummary } from '../batches/summary.js';
import { TOKEN_REQUIRED } from './token-required.js';

type Query = NonNullable<operations['pollBatchWithDelta']['parameters']['query']>;

/**
 * GET /v1/batches/{batch_id}/poll_with_delta: the summary and the messages decided after
 * last_sequence_id. The summary is read first: a message it counts may still be missing from the
 * page only if decided in between, and then it is on the next page, never lost.
 */
export function pollBatchWithDelta(
  sql: Sql,
): RequestHandler<{ batch_id: string }, unknown, unknown, Query> {
  return async (req, res) => {
    // The validator has checked the bounds and applied the defaults (0 and 500).
    const { last_sequence_id = 0, max_delta_size = 500 } = req.query;
    const row = await findBatch(sql, requireAccount(req, TOKEN_REQUIRED).id, req.params.batch_id);
    if (!row) throw new NotFoundError(`batch ${req.params.batch_id} not found`);
    const page = await readDelta(sql, row.id, Number(last_sequence_id), Number(max_delta_size));
    res.json({
      timestamp: new Date().toISOString(),
      batch_status_summary: toSummary(row),
      next_sequence: page.nextSequence,
      has_more: page.hasMore,
      submitted_messages_delta: page.items,
    });
  };
}
