import { randomUUID } from 'node:crypto';
import type { AccountState, BatchDomainEvent, EventEnvelope, SmsOutbound } from '@msg/contracts';
import { migrate } from '@msg/db';
import { createLogger, type Logger } from '@msg/logger';
import { applyOptOut } from '@msg/optout';
import { createPrepaidBilling, type PrepaidBilling } from '@msg/sms-submit';
import { accountState, startTestRuntime } from '@msg/testing';
import type pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import type { BatchEvent } from '../src/batches/batch-events.js';
import type { BatchRow } from '../src/batches/batch-row.js';
import { batchById } from '../src/batches/batch-row.js';
import { expandNextChunk } from '../src/processing/expand-next-chunk.js';
import { startNextDueBatch } from '../src/processing/start-due-batches.js';
import type { WorkerConfig, WorkerContext } from '../src/processing/worker-context.js';
import { BATCH_MIGRATIONS } from '../src/service.js';

export const testLogger: Logger = createLogger({
  service: 'batch-processing-test',
  level: 'error',
});

/** Worker settings for tests: fast ticks, a long progress interval (tests step it explicitly). */
export const TEST_CONFIG: WorkerConfig = {
  BATCH_WORKER_INTERVAL: 10,
  BATCH_CHUNK_SIZE: 1000,
  BATCH_PROGRESS_INTERVAL: 3_600_000,
  BATCH_RETENTION: 7 * 24 * 3_600_000,
};

/** Embedded Postgres with the batch schema migrated. */
export async function startProcessingDatabase() {
  const runtime = await startTestRuntime({ service: 'batch-processing' });
  await migrateBatchSchema(runtime.pool);
  return { pool: runtime.pool, stop: runtime.stop };
}

/**
 * A migrated database for the whole test file: started before its tests, `ready` gets the pool
 * (and may set up more on it), stopped after the file's own afterAll hooks have run.
 */
export function useProcessingDatabase(ready: (pool: pg.Pool) => void | Promise<void>): void {
  let stop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const database = await startProcessingDatabase();
    stop = database.stop;
    await ready(database.pool);
  }, 60_000);
  afterAll(async () => {
    await stop?.();
  });
}

/** Migrates the batch schema on any pool (real Postgres in the integration tier). */
export async function migrateBatchSchema(pool: pg.Pool): Promise<void> {
  await migrate({ pool, schema: 'batch', migrationsDirs: BATCH_MIGRATIONS, logger: testLogger });
}

/** An active account with batch SMS; override anything. */
export function testAccount(overrides: Partial<AccountState> = {}): AccountState {
  return accountState({ permissions: ['batch_sms'], ...overrides });
}

/** A directory of accounts as the workers see it; tests add and change accounts in it. */
export function accountDirectory(...accounts: AccountState[]) {
  const byId = new Map(accounts.map((a) => [a.id, a]));
  return {
    set(account: AccountState) {
      byId.set(account.id, account);
    },
    accountById: (id: string) => byId.get(id),
  };
}

/** A worker context to call one job step at a time. */
export function workerContext(
  pool: pg.Pool,
  accountById: (id: string) => AccountState | undefined,
  config: Partial<WorkerConfig> = {},
  billing: PrepaidBilling = createPrepaidBilling({
    adminUrl: undefined,
    token: undefined,
    logger: testLogger,
  }),
): WorkerContext {
  return {
    pool,
    logger: testLogger,
    accountById,
    billing,
    config: { ...TEST_CONFIG, ...config },
    stopping: () => false,
  };
}

export interface TestRecipient {
  phone_number: string;
  external_message_id?: string;
  field_message?: Record<string, string | number | boolean>;
}

export interface TestBatch {
  accountId: string;
  template?: string;
  /** Explicit recipients; or `count` generated ones (+4670 numbers, field `name`). */
  recipients?: TestRecipient[];
  count?: number;
  status?: 'created' | 'scheduled' | 'processing' | 'completed';
  scheduledAt?: Date | null;
  dryRun?: boolean;
  callbackUrl?: string | null;
  senderId?: string;
  deliveryReport?: boolean;
  validityMinutes?: number | null;
  purgeAfter?: Date | null;
}

/** Inserts a batch row and its pending messages directly, as the intake leaves them. */
export async function insertBatch(pool: pg.Pool, batch: TestBatch): Promise<string> {
  const id = randomUUID();
  const total = batch.recipients?.length ?? batch.count ?? 0;
  await pool.query(
    `INSERT INTO batch.batch (id, account_id, status, sender_id, message_template, validity_minutes,
        delivery_report, dry_run, callback_url, callback_token, scheduled_at, total_messages,
        purge_after, started_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13,
             CASE WHEN $3 = 'processing' THEN now() END)`,
    [
      id,
      batch.accountId,
      batch.status ?? 'created',
      batch.senderId ?? 'Acme',
      batch.template ?? 'Hello {{name}}',
      batch.validityMinutes ?? null,
      batch.deliveryReport ?? false,
      batch.dryRun ?? false,
      batch.callbackUrl ?? null,
      batch.callbackUrl ? 'secret-token' : null,
      batch.scheduledAt ?? null,
      total,
      batch.purgeAfter ?? null,
    ],
  );
  if (batch.recipients) {
    await pool.query(
      `INSERT INTO batch.message (batch_id, seq, phone_number, external_message_id, fields)
       SELECT $1, r.seq, r.phone, r.ext, r.fields::jsonb
         FROM unnest($2::int[], $3::text[], $4::text[], $5::text[]) AS r(seq, phone, ext, fields)`,
      [
        id,
        batch.recipients.map((_, i) => i + 1),
        batch.recipients.map((r) => r.phone_number),
        batch.recipients.map((r) => r.external_message_id ?? null),
        batch.recipients.map((r) => (r.field_message ? JSON.stringify(r.field_message) : null)),
      ],
    );
  } else if (total > 0) {
    await pool.query(
      `INSERT INTO batch.message (batch_id, seq, phone_number, external_message_id, fields)
       SELECT $1, s, '+4670' || lpad(s::text, 7, '0'), 'ext-' || s,
              jsonb_build_object('name', 'N' || s)
         FROM generate_series(1, $2::int) AS s`,
      [id, total],
    );
  }
  return id;
}

export async function readBatch(pool: pg.Pool, id: string): Promise<BatchRow> {
  const row = await batchById(pool, id);
  if (!row) throw new Error(`no batch ${id}`);
  return row;
}

export interface MessageRow {
  seq: number;
  id: string;
  phone_number: string;
  text: string | null;
  parts: number | null;
  status: string;
  error: string | null;
  transaction_id: string | null;
  change_seq: string | null;
  submitted_at: Date | null;
}

export async function readMessages(pool: pg.Pool, batchId: string): Promise<MessageRow[]> {
  const { rows } = await pool.query<MessageRow>(
    `SELECT seq, id, phone_number, text, parts, status, error, transaction_id,
            change_seq::text AS change_seq, submitted_at
       FROM batch.message WHERE batch_id = $1 ORDER BY seq`,
    [batchId],
  );
  return rows;
}

export interface OutboundRow {
  key: string;
  value: EventEnvelope<SmsOutbound>;
  created_at: Date;
}

/** The sms.outbound.v1 events in the outbox for an account, in publishing order. */
export async function outboundEvents(pool: pg.Pool, accountId: string): Promise<OutboundRow[]> {
  const { rows } = await pool.query<OutboundRow>(
    `SELECT key, value, created_at FROM batch.outbox_event
      WHERE topic = 'sms.outbound.v1' AND key = $1 ORDER BY seq`,
    [accountId],
  );
  return rows;
}

/** The batch events (batch.events.v1, what the customer is sent) queued for a batch, in order. */
export async function batchEvents(pool: pg.Pool, batchId: string): Promise<BatchEvent[]> {
  const { rows } = await pool.query<{ value: EventEnvelope<BatchDomainEvent> }>(
    `SELECT value FROM batch.outbox_event
      WHERE topic = 'batch.events.v1' AND value->'payload'->>'batchId' = $1
      ORDER BY seq`,
    [batchId],
  );
  return rows.map((row) => row.value.payload.event);
}

/** The recipient opted out of the account (or in again), as the replica of optouts.v1 records it. */
export async function optOut(
  pool: pg.Pool,
  accountId: string,
  msisdn: string,
  optedOut = true,
): Promise<void> {
  await applyOptOut(pool, 'batch', {
    accountId,
    msisdn,
    optedOut,
    source: 'inbound',
    keyword: optedOut ? 'STOP' : 'START',
    at: new Date().toISOString(),
  });
}

/** Runs a job step until it reports nothing left to do; returns how many steps did something. */
export async function drain(step: () => Promise<unknown>, max = 10_000): Promise<number> {
  let steps = 0;
  while (steps < max) {
    const result = await step();
    if (result === undefined || result === false || result === 'none') return steps;
    steps += 1;
  }
  throw new Error('step never ran out of work');
}

/** Starts every due batch and expands every due chunk, one step at a time. */
export async function startAndExpandAll(ctx: WorkerContext): Promise<void> {
  await drain(() => startNextDueBatch(ctx));
  await drain(() => expandNextChunk(ctx));
}
