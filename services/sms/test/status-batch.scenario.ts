import { type EventEnvelope, type SmsStatus, Topics } from '@msg/contracts';
import { withTransaction } from '@msg/db';
import { eventually } from '@msg/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyStatusBatch, type StatusReport } from '../src/status/apply-status.js';
import { startTestSms, statusEvent, type TestSms } from './support.js';

let sms: TestSms;
const HOOK = 'https://hooks.example.com/batch';

async function sendMany(count: number, accountId: string): Promise<string[]> {
  const acct = await sms.publishAccount(sms.account({ id: accountId }));
  const ids: string[] = [];
  for (let start = 0; start < count; start += 25) {
    const answers = await Promise.all(
      Array.from({ length: Math.min(25, count - start) }, () =>
        sms.send(acct, { to: '+46701234567', message: 'Hej', from: 'Acme', callback_url: HOOK }),
      ),
    );
    for (const res of answers) {
      expect(res.status).toBe(202);
      ids.push(res.body.messageId);
    }
  }
  return ids;
}

/**
 * The status consumer's batches, on embedded Postgres (status-batch.http.test.ts) and on a real
 * server (status-batch.integration.test.ts), whose row locks and concurrency are production's.
 */
export function statusBatchScenarios({ postgres }: { postgres: boolean }): void {
  beforeAll(async () => {
    sms = await startTestSms({ postgres });
  }, 60_000);

  afterAll(async () => {
    await sms?.stop();
  });

  describe('status consumer under load', () => {
    it('when 500 reports for 250 messages arrive at once (and 50 again), then every message ends delivered with one callback per change', async () => {
      const accountId = crypto.randomUUID();
      const messageIds = await sendMany(250, accountId);
      const events: { key: string; value: EventEnvelope }[] = [];
      for (const messageId of messageIds) {
        const submitted = statusEvent({
          messageId,
          accountId,
          state: 'submitted',
          smscMessageIds: [`smsc-${messageId}`],
        });
        events.push({ key: messageId, value: submitted });
      }
      for (const messageId of messageIds) {
        events.push({
          key: messageId,
          value: statusEvent({ messageId, accountId, state: 'delivered' }),
        });
      }
      // Redeliveries: the same event ids again.
      const again = events.slice(100, 150).map((e) => ({ ...e }));
      // One publish: the consumer gets them all at once (the support's helper sends one at a time).
      await sms.bus.publish(Topics.smsStatus, [...events, ...again]);

      await eventually(async () => {
        const { rows } = await sms.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM sms.message WHERE account_id = $1 AND status = 'delivered'`,
          [accountId],
        );
        return rows[0]?.n === 250 ? true : undefined;
      }, '250 messages delivered');
      const ids = new Set(messageIds);
      await eventually(
        () => (sms.callbackBodies(ids).length >= 500 ? true : undefined),
        '500 callbacks',
      );
      await new Promise((r) => setTimeout(r, 600));

      const bodies = sms.callbackBodies(ids);
      expect(bodies).toHaveLength(500);
      const perChange = new Set(bodies.map((b) => `${b.messageId}/${b.status}`));
      expect(perChange.size).toBe(500);
      const { rows } = await sms.pool.query<{
        smsc: string[];
        submitted: boolean;
        completed: boolean;
      }>(
        `SELECT smsc_message_ids AS smsc, submitted_at IS NOT NULL AS submitted,
                completed_at IS NOT NULL AS completed
         FROM sms.message WHERE account_id = $1`,
        [accountId],
      );
      expect(rows).toHaveLength(250);
      for (const row of rows) {
        expect(row).toMatchObject({ submitted: true, completed: true });
        expect(row.smsc).toHaveLength(1);
      }
    });
  });

  describe('applyStatusBatch', () => {
    const deps = () => ({ accountById: () => undefined, logger: sms.logger });

    async function apply(reports: StatusReport[]) {
      return withTransaction(sms.pool, (client) => applyStatusBatch(client, reports, deps()));
    }

    function asReport(value: EventEnvelope<SmsStatus>): StatusReport {
      return { envelope: value, status: value.payload };
    }

    async function stored(messageId: string) {
      const { rows } = await sms.pool.query(
        `SELECT status, smsc_message_ids, submitted_at, completed_at FROM sms.message WHERE id = $1`,
        [messageId],
      );
      return rows[0];
    }

    it('when submitted and delivered of one message are in one batch, then both apply in order with a callback each', async () => {
      const accountId = crypto.randomUUID();
      const [messageId = ''] = await sendMany(1, accountId);
      const submitted = statusEvent({
        messageId,
        accountId,
        state: 'submitted',
        smscMessageIds: ['s-1'],
        at: '2026-11-22T10:00:00.000Z',
      });
      const delivered = statusEvent({
        messageId,
        accountId,
        state: 'delivered',
        at: '2026-11-22T10:00:05.000Z',
      });

      expect(await apply([asReport(submitted), asReport(delivered)])).toEqual([
        'applied',
        'applied',
      ]);

      expect(await stored(messageId)).toMatchObject({
        status: 'delivered',
        smsc_message_ids: ['s-1'],
        submitted_at: new Date('2026-11-22T10:00:00.000Z'),
        completed_at: new Date('2026-11-22T10:00:05.000Z'),
      });
      await eventually(
        () => (sms.callbackBodies(new Set([messageId])).length >= 2 ? true : undefined),
        'two callbacks',
      );
      expect(sms.callbackBodies(new Set([messageId])).map((b) => b.status)).toEqual([
        'submitted',
        'delivered',
      ]);
    });

    it('when delivered comes before submitted in one batch, then submitted is stale', async () => {
      const accountId = crypto.randomUUID();
      const [messageId = ''] = await sendMany(1, accountId);
      const delivered = statusEvent({ messageId, accountId, state: 'delivered' });
      const submitted = statusEvent({
        messageId,
        accountId,
        state: 'submitted',
        smscMessageIds: ['x'],
      });

      expect(await apply([asReport(delivered), asReport(submitted)])).toEqual(['applied', 'stale']);
      expect(await stored(messageId)).toMatchObject({
        status: 'delivered',
        smsc_message_ids: [],
        submitted_at: null,
      });
    });

    it('when one event is twice in a batch, or was applied before, then it is stale (no step forward); unknown ids are named so', async () => {
      const accountId = crypto.randomUUID();
      const [messageId = ''] = await sendMany(1, accountId);
      const submitted = asReport(statusEvent({ messageId, accountId, state: 'submitted' }));
      const unknown = asReport(
        statusEvent({ messageId: crypto.randomUUID(), accountId, state: 'submitted' }),
      );
      const notUuid = asReport(
        statusEvent({ messageId: 'batch-42', accountId, state: 'submitted' }),
      );

      expect(await apply([submitted, submitted, unknown, notUuid])).toEqual([
        'applied',
        'stale',
        'unknown-message',
        'unknown-message',
      ]);
      expect(await apply([submitted])).toEqual(['stale']);
    });

    it('when the batch fails, then nothing of it stays', async () => {
      const accountId = crypto.randomUUID();
      const [messageId = ''] = await sendMany(1, accountId);
      const submitted = asReport(statusEvent({ messageId, accountId, state: 'submitted' }));
      await expect(
        withTransaction(sms.pool, async (client) => {
          await applyStatusBatch(client, [submitted], deps());
          throw new Error('commit failed');
        }),
      ).rejects.toThrow('commit failed');
      expect((await stored(messageId))?.status).toBe('accepted');
      expect(await apply([submitted])).toEqual(['applied']);
    });
  });
}
