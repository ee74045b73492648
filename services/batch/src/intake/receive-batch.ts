import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { copyRows, withTransaction } from '@msg/db';
import { type TargetPolicy, ValidationError } from '@msg/http';
import type { SenderRules } from '@msg/sms-text';
import type pg from 'pg';
import { queueBatchEvent } from '../batches/batch-events.js';
import { BATCH_COLUMNS, BATCH_TABLE, type BatchRow, MESSAGE_TABLE } from '../batches/batch-row.js';
import { BatchBodyParser } from './batch-body-parser.js';
import { type BodyLimits, inflatedBody } from './gzip-body.js';
import { type BatchHeader, checkHeaderMember, completeHeader } from './header-rules.js';
import { checkRecipient } from './recipient-rules.js';

/** Most recipients of any batch (specification 8.1). */
export const MAX_RECIPIENTS = 1_000_000;

const MESSAGE_COLUMNS = [
  { name: 'batch_id' },
  { name: 'seq' },
  { name: 'phone_number' },
  { name: 'external_message_id' },
  { name: 'fields' },
];

export interface ReceiveBatchOptions {
  pool: pg.Pool;
  limits: BodyLimits;
  accountId: string;
  /** The account's own recipient limit (AccountState.batchMaxRecipients); null = none. */
  accountMaxRecipients: number | null;
  /** Who may send as what: `sms_config.sender_id` is refused (400) when the account may not. */
  senders: SenderRules;
  /** Whether `batch_event_callback_url` may name a private host (CALLBACK_ALLOW_PRIVATE_TARGETS). */
  clientUrls: TargetPolicy;
  now?: () => Date;
  traceId?: string;
}

/**
 * Reads a createBatch body (gzip JSON) from the request and stores the batch, all or nothing:
 * in ONE transaction the recipients stream straight from the parser into batch.message
 * (copyRows: COPY on Postgres), then the batch row is inserted and batch.created (+
 * batch.scheduled) queued. Any broken rule, a client that goes away, or a crash rolls it all
 * back, so a batch exists only once every recipient is stored. Memory holds one inflated chunk's
 * recipients at a time. Returns the new batch row.
 */
export async function receiveBatch(
  req: IncomingMessage,
  {
    pool,
    limits,
    accountId,
    accountMaxRecipients,
    senders,
    clientUrls,
    now = () => new Date(),
    traceId,
  }: ReceiveBatchOptions,
): Promise<BatchRow> {
  const id = randomUUID();
  const maxRecipients = Math.min(MAX_RECIPIENTS, accountMaxRecipients ?? MAX_RECIPIENTS);
  const header: Partial<BatchHeader> = {};
  let sawSmsConfig = false;
  let ready: (string | null)[][] = [];

  const parser = new BatchBodyParser({
    onRecipient(value, index) {
      if (index >= maxRecipients) {
        throw ValidationError.field(
          ['body', 'batch', 'recipients'],
          'maxItems',
          `must hold at most ${maxRecipients} recipients${
            maxRecipients < MAX_RECIPIENTS ? ' (the limit of this account)' : ''
          }`,
        );
      }
      const entry = checkRecipient(value, index);
      ready.push([id, String(index + 1), entry.phoneNumber, entry.externalMessageId, entry.fields]);
    },
    onMember(member, value) {
      Object.assign(header, checkHeaderMember(member, value, { now: now(), senders, clientUrls }));
      if (member === 'sms_config') sawSmsConfig = true;
    },
  });

  async function* rows(): AsyncGenerator<(string | null)[]> {
    for await (const chunk of inflatedBody(req, limits)) {
      parser.write(chunk);
      const batch = ready;
      ready = [];
      yield* batch;
    }
    parser.end();
    yield* ready;
  }

  return withTransaction(pool, async (client) => {
    const total = await copyRows(client, {
      table: MESSAGE_TABLE,
      columns: MESSAGE_COLUMNS,
      rows: rows(),
    });
    const batch = completeHeader(header, { smsConfig: sawSmsConfig });
    if (!parser.sawRecipients) {
      throw ValidationError.field(['body', 'batch', 'recipients'], 'missing', 'is required');
    }
    if (total === 0) {
      throw ValidationError.field(
        ['body', 'batch', 'recipients'],
        'minItems',
        'must hold at least 1 recipient',
      );
    }
    const createdAt = now();
    const scheduled = batch.scheduledAt !== null && batch.scheduledAt > createdAt;
    const { rows: inserted } = await client.query<BatchRow & Record<string, unknown>>(
      `INSERT INTO ${BATCH_TABLE} (id, account_id, external_batch_id, status, sender_id,
         message_template, validity_minutes, delivery_report, dry_run, callback_url,
         callback_token, created_at, scheduled_at, total_messages)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
       RETURNING ${BATCH_COLUMNS}`,
      [
        id,
        accountId,
        batch.externalBatchId,
        scheduled ? 'scheduled' : 'created',
        batch.senderId,
        batch.messageTemplate,
        batch.validityMinutes,
        batch.deliveryReport,
        batch.dryRun,
        batch.callbackUrl,
        batch.callbackToken,
        createdAt,
        batch.scheduledAt,
        total,
      ],
    );
    const row = inserted[0];
    if (!row) throw new Error('batch row not inserted');
    await queueBatchEvent(client, row, 'batch.created', {}, traceId);
    if (scheduled) await queueBatchEvent(client, row, 'batch.scheduled', {}, traceId);
    return row;
  });
}
