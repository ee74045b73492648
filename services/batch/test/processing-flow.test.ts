import {
  type Bus,
  createInProcessBus,
  createOutboxRelay,
  type OutboxRelay,
  type Subscription,
} from '@msg/bus';
import {
  type AccountState,
  makeEvent,
  SMS_STATUS_EVENT,
  type SmsOutbound,
  type SmsStatus,
  Topics,
} from '@msg/contracts';
import type pg from 'pg';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startBatchWorkers, startStatusConsumer } from '../src/processing/index.js';
import {
  accountDirectory,
  batchEvents,
  insertBatch,
  readBatch,
  readMessages,
  startProcessingDatabase,
  TEST_CONFIG,
  testAccount,
  testLogger,
} from './processing-support.js';

let pool: pg.Pool;
let bus: Bus;
let relay: OutboxRelay;
let connector: Subscription;
let stop: () => Promise<void>;
/** How often the fake smsc-connector saw each message id. */
const submitted = new Map<string, number>();

beforeAll(async () => {
  const database = await startProcessingDatabase();
  pool = database.pool;
  bus = createInProcessBus({ logger: testLogger });
  await bus.ensureTopics([
    { topic: Topics.smsOutbound },
    { topic: Topics.smsStatus },
    { topic: Topics.batchEvents },
  ]);
  relay = createOutboxRelay({ pool, schema: 'batch', bus, logger: testLogger, pollIntervalMs: 10 });
  relay.start();
  // Plays the smsc-connector: every outbound message is submitted and reported back.
  connector = await bus.subscribe({
    groupId: 'fake-smsc-connector',
    topics: [Topics.smsOutbound],
    fromBeginning: true,
    handler: async ({ value }) => {
      const sms = value.payload as SmsOutbound;
      submitted.set(sms.messageId, (submitted.get(sms.messageId) ?? 0) + 1);
      const status: SmsStatus = {
        messageId: sms.messageId,
        accountId: sms.accountId,
        source: sms.source,
        state: sms.to.endsWith('7') ? 'failed' : 'submitted',
        smscMessageIds: [`smsc-${sms.messageId}`],
        parts: sms.parts,
        at: new Date().toISOString(),
        ...(sms.to.endsWith('7') && { error: { smppStatus: 11, description: 'bad address' } }),
      };
      await bus.publish(Topics.smsStatus, [
        {
          key: sms.messageId,
          value: makeEvent(SMS_STATUS_EVENT, status, { accountId: sms.accountId }),
        },
      ]);
    },
  });
  stop = async () => {
    await connector.stop();
    await relay.stop();
    await bus.close();
    await database.stop();
  };
}, 60_000);

afterAll(async () => {
  await stop?.();
});

/** One replica's processing: the workers and the status consumer. */
async function startReplica(accountById: (id: string) => AccountState | undefined) {
  const config = { ...TEST_CONFIG, BATCH_CHUNK_SIZE: 10, BATCH_PROGRESS_INTERVAL: 200 };
  const workers = startBatchWorkers({ pool, logger: testLogger, accountById, config });
  const consumer = await startStatusConsumer({
    bus,
    pool,
    logger: testLogger,
    metrics: new Registry(),
    retention: config.BATCH_RETENTION,
  });
  return async () => {
    await workers.stop();
    await consumer.stop();
  };
}

describe('processing end to end', () => {
  it('when the service restarts in the middle of submission, then every message is sent once, reported once, and the batch completes last', async () => {
    const account = testAccount({ smsThroughputPerSecond: 30 });
    const directory = accountDirectory(account);
    const id = await insertBatch(pool, {
      accountId: account.id,
      count: 60,
      callbackUrl: 'https://hooks.example.com/batches',
    });

    const stopFirst = await startReplica(directory.accountById);
    await vi.waitFor(
      async () => expect((await readBatch(pool, id)).submitted_messages).toBeGreaterThan(0),
      { timeout: 15_000, interval: 20 },
    );
    await stopFirst();
    expect((await readBatch(pool, id)).status).toBe('processing');

    const stopSecond = await startReplica(directory.accountById);
    try {
      await vi.waitFor(
        async () => expect((await readBatch(pool, id)).final_event_queued).toBe(true),
        { timeout: 30_000, interval: 50 },
      );
    } finally {
      await stopSecond();
    }

    const messages = await readMessages(pool, id);
    // +4670 numbers ending in 7 are refused by the fake SMSC.
    const refused = messages.filter((m) => m.phone_number.endsWith('7'));
    expect(refused).toHaveLength(6);
    expect(await readBatch(pool, id)).toMatchObject({
      status: 'completed',
      submitted_messages: 54,
      failed_messages: 6,
      last_change_seq: '60',
      notified_change_seq: '60',
    });
    expect(messages.map((m) => submitted.get(m.transaction_id ?? ''))).toEqual(
      messages.map(() => 1),
    );
    const events = await batchEvents(pool, id);
    expect(events[0]?.event_type).toBe('batch.processing_started');
    expect(events.at(-1)?.event_type).toBe('batch.submission_completed');
    const progress = events.slice(1, -1);
    expect(progress.every((e) => e.event_type === 'batch.submission_progress_update')).toBe(true);
    const reported = progress.flatMap((e) => e.submitted_messages_delta ?? []);
    expect(reported.map((d) => d.id).sort()).toEqual(messages.map((m) => m.id).sort());
    expect(reported.filter((d) => d.submission_status === 'FAILED')).toHaveLength(6);
    const percentages = progress.map((e) => e.submission_progress_percentage ?? -1);
    expect(percentages).toEqual([...percentages].sort((a, b) => a - b));
    expect(percentages.at(-1)).toBe(100);
  });
});
