import { type Sql, withTransaction } from '@msg/db';
import { optedOutAmong } from '@msg/optout';
import { type OutboundSms, queueOutbound, type RefusalReason, submitSms } from '@msg/sms-submit';
import {
  BATCH_COLUMNS,
  BATCH_SCHEMA,
  BATCH_TABLE,
  type BatchRow,
  MESSAGE_TABLE,
} from '../batches/batch-row.js';
import { completeIfDecided } from './complete-batch.js';
import {
  type ChunkPlan,
  type PendingMessage,
  planChunk,
  prepareChunk,
  smsToSubmit,
} from './plan-chunk.js';
import { mayRunBatches, type WorkerContext } from './worker-context.js';

/** Most chunks one tick expands (dry runs are not paced); the rest wait for the next tick. */
const MAX_CHUNKS_PER_TICK = 50;

/** How long a batch whose chunk failed waits before the next attempt. */
const RETRY_DELAY_MS = 30_000;

/**
 * Expands the next chunk of one processing batch whose pacing allows it: every message of the
 * chunk is rendered and checked, the good ones go the one SMS path (submitSms of @msg/sms-submit:
 * a recipient who opted out fails as `opted_out`, one a prepaid balance cannot pay for as
 * `insufficient_funds`, the others are queued on sms.outbound.v1 through the outbox) and the rest
 * are decided as failed — all in one transaction with the batch row locked (SKIP LOCKED), so two
 * replicas never take the same chunk and a crash leaves no half chunk.
 *
 * A chunk holds at most BATCH_CHUNK_SIZE messages and at most one second of the account's
 * throughput; the next one is due when the queued messages have had time to go out. A dry run
 * takes full chunks without pacing and sends nothing. Returns the batch id, or undefined when no
 * batch had a chunk due.
 */
export async function expandNextChunk(ctx: WorkerContext): Promise<string | undefined> {
  return withTransaction(ctx.pool, async (sql) => {
    const { rows } = await sql.query<BatchRow & Record<string, unknown>>(
      `SELECT ${BATCH_COLUMNS} FROM ${BATCH_TABLE}
        WHERE status = 'processing' AND expanded_through < total_messages
          AND (next_chunk_at IS NULL OR next_chunk_at <= now())
        ORDER BY next_chunk_at NULLS FIRST, started_at
        LIMIT 1
        FOR UPDATE SKIP LOCKED`,
    );
    const batch = rows[0];
    if (!batch) return undefined;

    // A chunk that fails (say, a row the database refuses) must not hold up the other batches:
    // it is undone to the savepoint and the batch waits a while before it is tried again.
    await sql.query('SAVEPOINT chunk');
    try {
      await expandChunk(ctx, sql, batch);
    } catch (err) {
      await sql.query('ROLLBACK TO SAVEPOINT chunk');
      await sql.query(
        `UPDATE ${BATCH_TABLE} SET next_chunk_at = now() + $2::float8 * interval '1 millisecond'
          WHERE id = $1`,
        [batch.id, RETRY_DELAY_MS],
      );
      ctx.logger.error('batch chunk failed; retrying later', {
        batchId: batch.id,
        err: err instanceof Error ? err.message : String(err),
      });
    }
    return batch.id;
  });
}

async function expandChunk(ctx: WorkerContext, sql: Sql, batch: BatchRow): Promise<void> {
  const account = ctx.accountById(batch.account_id);
  // An account that lost batch SMS meanwhile: the rest of its recipients fail, chunk by chunk.
  const throughput = mayRunBatches(account)
    ? Math.max(1, Math.floor(account.smsThroughputPerSecond))
    : undefined;
  const size =
    batch.dry_run || throughput === undefined
      ? ctx.config.BATCH_CHUNK_SIZE
      : Math.min(ctx.config.BATCH_CHUNK_SIZE, throughput);
  const through = Math.min(batch.expanded_through + size, batch.total_messages);

  const pending = await sql.query<PendingMessage & Record<string, unknown>>(
    `SELECT seq, phone_number, fields FROM ${MESSAGE_TABLE}
        WHERE batch_id = $1 AND seq > $2 AND seq <= $3 AND status = 'pending'
        ORDER BY seq`,
    [batch.id, batch.expanded_through, through],
  );
  if (pending.rows.length !== through - batch.expanded_through) {
    ctx.logger.warn('batch chunk has fewer pending messages than its range', {
      batchId: batch.id,
      from: batch.expanded_through + 1,
      through,
      found: pending.rows.length,
    });
  }
  const chunk = prepareChunk(batch, pending.rows, { mayRun: throughput !== undefined });
  const messages = smsToSubmit(batch, chunk);

  /** Writes the chunk's decisions, its outbound rows and the batch's counters and pacing. */
  const write = async (refused: ReadonlyMap<string, RefusalReason>, outbound?: OutboundSms) => {
    const plan = planChunk(batch, chunk, refused);
    await updateMessages(sql, batch.id, plan);
    if (outbound) await queueOutbound(sql, BATCH_SCHEMA, outbound);
    await advanceBatch(ctx, sql, batch, { through, throughput, plan });
  };
  // Recipients who opted out of the account fail as `opted_out`: one lookup for the whole chunk
  // in the service's replica of optouts.v1.
  const optedOut = (recipients: readonly string[]) =>
    optedOutAmong(sql, BATCH_SCHEMA, batch.account_id, recipients);

  if (!mayRunBatches(account)) return write(new Map());
  if (batch.dry_run) {
    // Nothing is charged or sent; a recipient who opted out fails all the same.
    const out = await optedOut(messages.map((sms) => sms.to));
    const refused = messages.filter((sms) => out.has(sms.to));
    return write(new Map(refused.map((sms) => [sms.messageId, 'opted_out'])));
  }
  // The one SMS path: opted-out recipients are refused before anything is charged, a prepaid
  // account pays in seq order as far as its balance goes (the first it cannot cover and every later
  // one fail as `insufficient_funds`), and each refused recipient fails alone. Billing that cannot
  // answer throws (the chunk rolls back and waits); a write that throws gives the charges back.
  await submitSms(ctx.billing, {
    account,
    source: 'batch',
    refuse: 'each',
    messages,
    optedOut,
    write: ({ refused, outbound }) =>
      write(new Map(refused.map(({ sms, reason }) => [sms.messageId, reason])), outbound()),
  });
}

/** Moves the batch past the chunk: its counters, and when the next chunk is due. */
async function advanceBatch(
  ctx: WorkerContext,
  sql: Sql,
  batch: BatchRow,
  { through, throughput, plan }: { through: number; throughput?: number; plan: ChunkPlan },
): Promise<void> {
  // Unpaced chunks (dry run, nothing sent) are due again at once, but behind the batches that
  // have waited longer: ordering by next_chunk_at takes the batches in turn.
  const paceSeconds = throughput === undefined ? 0 : plan.queued / throughput;
  const updated = await sql.query<BatchRow & Record<string, unknown>>(
    `UPDATE ${BATCH_TABLE}
          SET expanded_through = $2,
              total_parts = total_parts + $3,
              submitted_messages = submitted_messages + $4,
              failed_messages = failed_messages + $5,
              last_change_seq = $6,
              next_chunk_at = now() + $7::float8 * interval '1 second'
        WHERE id = $1
        RETURNING ${BATCH_COLUMNS}`,
    [batch.id, through, plan.parts, plan.submitted, plan.failed, plan.lastChangeSeq, paceSeconds],
  );
  const row = updated.rows[0];
  if (!row) throw new Error('locked batch row vanished');
  await completeIfDecided(sql, row, ctx.config.BATCH_RETENTION);
}

/** Writes the chunk's new message states in one statement. */
async function updateMessages(sql: Sql, batchId: string, { columns }: ChunkPlan): Promise<void> {
  if (columns.seq.length === 0) return;
  await sql.query(
    `UPDATE ${MESSAGE_TABLE} AS m
        SET status = u.status, error = u.error, text = u.text, parts = u.parts,
            transaction_id = u.transaction_id, phone_number = u.phone_number,
            change_seq = u.change_seq,
            submitted_at = CASE WHEN u.change_seq IS NULL THEN NULL ELSE now() END
       FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::int[], $7::uuid[],
                   $8::text[], $9::bigint[])
            AS u(seq, status, error, text, parts, transaction_id, phone_number, change_seq)
      WHERE m.batch_id = $1 AND m.seq = u.seq`,
    [
      batchId,
      columns.seq,
      columns.status,
      columns.error,
      columns.text,
      columns.parts,
      columns.transactionId,
      columns.phoneNumber,
      columns.changeSeq,
    ],
  );
}

/** Expands due chunks (up to a bound per tick). */
export async function expandDueChunks(ctx: WorkerContext): Promise<number> {
  let handled = 0;
  while (handled < MAX_CHUNKS_PER_TICK && !ctx.stopping()) {
    if ((await expandNextChunk(ctx)) === undefined) break;
    handled += 1;
  }
  return handled;
}
