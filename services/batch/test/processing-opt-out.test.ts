import { createInProcessBus } from '@msg/bus';
import { Topics } from '@msg/contracts';
import { isOptedOut, optOutEventFor, startOptOutReplica } from '@msg/optout';
import type pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { expandNextChunk } from '../src/processing/expand-next-chunk.js';
import { startNextDueBatch } from '../src/processing/start-due-batches.js';
import {
  accountDirectory,
  drain,
  insertBatch,
  optOut,
  outboundEvents,
  readBatch,
  readMessages,
  testAccount,
  testLogger,
  useProcessingDatabase,
  workerContext,
} from './processing-support.js';

let pool: pg.Pool;
const directory = accountDirectory();
useProcessingDatabase((ready) => {
  pool = ready;
});

async function startAndExpand(ctx: ReturnType<typeof workerContext>): Promise<void> {
  await drain(() => startNextDueBatch(ctx));
  await drain(() => expandNextChunk(ctx));
}

describe('expansion with opted-out recipients', () => {
  it('when a recipient opted out of the account, then that recipient fails as opted_out and the others go out', async () => {
    const account = testAccount({ smsThroughputPerSecond: 1000 });
    const other = testAccount();
    directory.set(account);
    await optOut(pool, account.id, '+46701234502');
    // Opted out of another account only, or opted in again: not refused here.
    await optOut(pool, other.id, '+46701234503');
    await optOut(pool, account.id, '+46701234504');
    await optOut(pool, account.id, '+46701234504', false);
    const id = await insertBatch(pool, {
      accountId: account.id,
      recipients: [
        { phone_number: '+46701234501', field_message: { name: 'Ann' } },
        // Stored as the customer wrote it; compared in E.164.
        { phone_number: '0046701234502', field_message: { name: 'Bo' } },
        { phone_number: '+46701234503', field_message: { name: 'Cy' } },
        { phone_number: '+46701234504', field_message: { name: 'Di' } },
      ],
    });
    await startAndExpand(workerContext(pool, directory.accountById));

    const messages = await readMessages(pool, id);
    expect(messages.map((m) => [m.status, m.error, m.phone_number])).toEqual([
      ['queued', null, '+46701234501'],
      ['failed', 'opted_out', '+46701234502'],
      ['queued', null, '+46701234503'],
      ['queued', null, '+46701234504'],
    ]);
    // Decided at once, like every failure, so it shows in the deltas as FAILED.
    expect(messages[1]?.change_seq).toBe('1');
    const events = await outboundEvents(pool, account.id);
    expect(events.map((e) => e.value.payload)).toEqual([
      expect.objectContaining({ to: '+46701234501' }),
      expect.objectContaining({ to: '+46701234503' }),
      expect.objectContaining({ to: '+46701234504' }),
    ]);
    expect(await readBatch(pool, id)).toMatchObject({
      status: 'processing',
      failed_messages: 1,
      expanded_through: 4,
    });
  });

  it('when every recipient opted out, then the batch ends failed; a dry run reports them failed too', async () => {
    const account = testAccount({ smsThroughputPerSecond: 1000 });
    directory.set(account);
    await optOut(pool, account.id, '+46701234511');
    const id = await insertBatch(pool, {
      accountId: account.id,
      recipients: [{ phone_number: '+46701234511', field_message: { name: 'Ann' } }],
    });
    const dry = await insertBatch(pool, {
      accountId: account.id,
      dryRun: true,
      recipients: [
        { phone_number: '+46701234511', field_message: { name: 'Ann' } },
        { phone_number: '+46701234512', field_message: { name: 'Bo' } },
      ],
    });
    await startAndExpand(workerContext(pool, directory.accountById));

    expect(await readBatch(pool, id)).toMatchObject({ status: 'failed', failed_messages: 1 });
    expect((await readMessages(pool, dry)).map((m) => [m.status, m.error])).toEqual([
      ['failed', 'opted_out'],
      ['submitted', null],
    ]);
    expect(await outboundEvents(pool, account.id)).toEqual([]);
  });
});

describe('the replica of optouts.v1', () => {
  it('when a STOP reaches optouts.v1 from another service, then the next chunk fails that recipient', async () => {
    const bus = createInProcessBus({ logger: testLogger });
    await bus.ensureTopics([{ topic: Topics.optOuts, compacted: true }]);
    const replica = await startOptOutReplica({
      bus,
      sql: pool,
      schema: 'batch',
      groupId: 'batch-optouts',
    });
    try {
      const account = testAccount({ smsThroughputPerSecond: 1000 });
      directory.set(account);
      const stop = optOutEventFor(
        {
          from: '+46701234521',
          to: '+46765550100',
          text: 'avsluta',
          receivedAt: new Date().toISOString(),
        },
        account.id,
      );
      if (!stop) throw new Error('AVSLUTA is a stop word');
      await bus.publish(Topics.optOuts, [stop]);
      await vi.waitFor(
        async () => expect(await isOptedOut(pool, 'batch', account.id, '+46701234521')).toBe(true),
        { timeout: 10_000 },
      );
      const id = await insertBatch(pool, {
        accountId: account.id,
        recipients: [
          { phone_number: '+46701234521', field_message: { name: 'Ann' } },
          { phone_number: '+46701234522', field_message: { name: 'Bo' } },
        ],
      });
      await startAndExpand(workerContext(pool, directory.accountById));
      expect((await readMessages(pool, id)).map((m) => [m.status, m.error])).toEqual([
        ['failed', 'opted_out'],
        ['queued', null],
      ]);
    } finally {
      await replica.stop();
      await bus.close();
    }
  });
});
