import { requireAccount } from '@msg/auth';
import { withTransaction } from '@msg/db';
import { ConflictError, NotFoundError } from '@msg/http';
import type { RequestHandler } from 'express';
import type pg from 'pg';
import { queueBatchEvent } from '../batches/batch-events.js';
import { BATCH_TABLE, type BatchRow, findBatch } from '../batches/batch-row.js';
import { toSummary } from '../batches/summary.js';
import { TOKEN_REQUIRED } from './token-required.js';

/** Statuses cancel may leave: the batch has not started processing. */
const CANCELABLE = new Set<BatchRow['status']>(['created', 'scheduled']);

export interface CancelBatchDeps {
  pool: pg.Pool;
  /** How long a batch is kept after it ends (BATCH_RETENTION). */
  retentionMs: number;
}

/**
 * POST /v1/batches/{batch_id}/cancel: a batch that has not started becomes canceled (event
 * batch.canceled); otherwise 409. The row lock makes cancel and the worker's start exclusive:
 * whichever commits first wins and the other sees its result.
 */
export function cancelBatch({ pool, retentionMs }: CancelBatchDeps): RequestHandler<{
  batch_id: string;
}> {
  return async (req, res) => {
    const accountId = requireAccount(req, TOKEN_REQUIRED).id;
    const canceled = await withTransaction(pool, async (client) => {
      const row = await findBatch(client, accountId, req.params.batch_id, { lock: true });
      if (!row) throw new NotFoundError(`batch ${req.params.batch_id} not found`);
      if (!CANCELABLE.has(row.status)) {
        throw new ConflictError(
          `batch is ${row.status}; only a batch that has not started can be canceled`,
        );
      }
      const { rows } = await client.query<{ completed_at: Date; purge_after: Date }>(
        `UPDATE ${BATCH_TABLE}
            SET status = 'canceled', completed_at = now(),
                purge_after = greatest(now(), coalesce(scheduled_at, now())) + $2 * interval '1 millisecond'
          WHERE id = $1
          RETURNING completed_at, purge_after`,
        [row.id, retentionMs],
      );
      const updated: BatchRow = { ...row, status: 'canceled', ...rows[0] };
      await queueBatchEvent(client, updated, 'batch.canceled', {}, req.requestId);
      return updated;
    });
    res.json({ batch_status_summary: toSummary(canceled) });
  };
}
