import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { OUTBOX_MIGRATIONS_DIR } from '@msg/bus';
import type { SmsStatus } from '@msg/contracts';
import { createGroupCommit, migrate } from '@msg/db';
import { createLogger } from '@msg/logger';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryReceipt } from '../src/delivery-receipt.js';
import {
  expireOverdueSubmissions,
  NO_RECEIPT_DESCRIPTION,
  removeStaleOrphans,
} from '../src/expiry-sweeper.js';
import { applyReceipts, type ScopedReceipt } from '../src/receipt-store.js';
import { SMSC_CONNECTOR_SCHEMA as SCHEMA } from '../src/schema.js';
import {
  type ReceiptWaitPolicy,
  recordSubmissions,
  type SubmissionOutcome,
} from '../src/submission-store.js';
import { outbound, startScratchDatabase } from './support.js';

const logger = createLogger({ service: 'submission-store-it', level: 'error' });
const policy: ReceiptWaitPolicy = { defaultValidityMinutes: 2880, graceMinutes: 60 };
const scope = 'smsc@127.0.0.1:2775';

let database: Awaited<ReturnType<typeof startScratchDatabase>>;
let pool: pg.Pool;

beforeAll(async () => {
  database = await startScratchDatabase('smsc-store-test', 6);
  pool = database.pool;
  await migrate({
    pool,
    schema: SCHEMA,
    migrationsDirs: [
      OUTBOX_MIGRATIONS_DIR,
      fileURLToPath(new URL('../prisma/migrations', import.meta.url)),
    ],
    logger,
  });
});

afterAll(async () => {
  await database?.close();
});

/** The group commits the connector runs, with a count of the transactions they used. */
function groupCommits() {
  const transactions = { submits: 0, receipts: 0 };
  return {
    transactions,
    submits: createGroupCommit(pool, (client, outcomes: SubmissionOutcome[]) => {
      transactions.submits++;
      return recordSubmissions(client, outcomes, policy);
    }),
    receipts: createGroupCommit(pool, (client, receipts: ScopedReceipt[]) => {
      transactions.receipts++;
      return applyReceipts(client, receipts);
    }),
  };
}

function accepted(
  message = outbound(),
  smscMessageId = randomBytes(8).toString('hex'),
  at = new Date(),
): SubmissionOutcome {
  return {
    message,
    parts: 1,
    bindName: 'a',
    accepted: [{ partNo: 1, scope, smscMessageId, acceptedAt: at }],
    at,
  };
}

const delivered = (smscMessageId: string): DeliveryReceipt => ({
  smscMessageId,
  state: 'delivered',
  stat: 'DELIVRD',
  err: '000',
});

async function statusesOf(messageIds: readonly string[]): Promise<Map<string, SmsStatus[]>> {
  const { rows } = await pool.query<{ key: string; value: { payload: SmsStatus } }>(
    `SELECT "key", "value" FROM "${SCHEMA}"."outbox_event" WHERE "key" = ANY($1::text[]) ORDER BY "seq"`,
    [messageIds],
  );
  const byMessage = new Map<string, SmsStatus[]>(messageIds.map((id) => [id, []]));
  for (const row of rows) byMessage.get(row.key)?.push(row.value.payload);
  return byMessage;
}

const states = (statuses: SmsStatus[] | undefined) => statuses?.map((status) => status.state);

describe('group-committed submissions and receipts (Postgres)', () => {
  it('when 200 outcomes and then their 200 receipts complete at once, then each message gets one row, submitted then delivered, in a few transactions', async () => {
    const { submits, receipts, transactions } = groupCommits();
    const outcomes = Array.from({ length: 200 }, () => accepted());

    const recorded = await Promise.all(outcomes.map((outcome) => submits.add(outcome)));
    const applied = await Promise.all(
      outcomes.map((outcome) =>
        receipts.add({ scope, receipt: delivered(outcome.accepted[0]?.smscMessageId ?? '') }),
      ),
    );

    expect(recorded.every((result) => result.recorded && result.reused.length === 0)).toBe(true);
    expect(applied.every((outcome) => outcome === 'applied')).toBe(true);
    const ids = outcomes.map((outcome) => outcome.message.messageId);
    const statuses = await statusesOf(ids);
    for (const id of ids) expect(states(statuses.get(id))).toEqual(['submitted', 'delivered']);
    const { rows } = await pool.query(
      `SELECT count(*)::int AS n FROM "${SCHEMA}"."submission"
        WHERE "message_id" = ANY($1::text[]) AND "final_state" = 'delivered'`,
      [ids],
    );
    expect(rows[0]).toEqual({ n: 200 });
    expect(transactions.submits).toBeLessThanOrEqual(2);
    expect(transactions.receipts).toBeLessThanOrEqual(2);
  });

  it('when receipts race their submissions (each receipt sent before its submission is recorded), then every message still completes once and no orphan is left', async () => {
    const { submits, receipts } = groupCommits();
    const outcomes = Array.from({ length: 200 }, () => accepted());

    const receiptResults = outcomes.map((outcome) =>
      receipts.add({ scope, receipt: delivered(outcome.accepted[0]?.smscMessageId ?? '') }),
    );
    const submitResults = outcomes.map((outcome) => submits.add(outcome));
    const applied = await Promise.all(receiptResults);
    await Promise.all(submitResults);

    // Both sides ran at once on two connections: receipts were parked, none taken for duplicates.
    expect(applied).toContain('orphan');
    expect(applied).not.toContain('duplicate');
    const ids = outcomes.map((outcome) => outcome.message.messageId);
    const statuses = await statusesOf(ids);
    for (const id of ids) expect(states(statuses.get(id))).toEqual(['submitted', 'delivered']);
    const { rows } = await pool.query(
      `SELECT count(*)::int AS n FROM "${SCHEMA}"."orphan_receipt" WHERE "smsc_message_id" = ANY($1::text[])`,
      [outcomes.map((outcome) => outcome.accepted[0]?.smscMessageId)],
    );
    expect(rows[0]).toEqual({ n: 0 });
  });

  it('when the same message id is recorded twice in one batch and again later, then it is recorded once and published once', async () => {
    const { submits } = groupCommits();
    const first = accepted();
    const again = { ...accepted(first.message), at: new Date() };

    const results = await Promise.all([submits.add(first), submits.add(again)]);
    const later = await submits.add(accepted(first.message));

    expect(results.map((result) => result.recorded)).toEqual([true, false]);
    expect(later.recorded).toBe(false);
    expect(
      states((await statusesOf([first.message.messageId])).get(first.message.messageId)),
    ).toEqual(['submitted']);
  });
});

describe('multi-part messages and parked receipts (Postgres)', () => {
  it('when the receipts of a two-part message come in one batch with others, then it is final only with both parts, failed if one failed', async () => {
    const { submits, receipts } = groupCommits();
    const at = new Date();
    const ids = [randomBytes(8).toString('hex'), randomBytes(8).toString('hex')];
    const twoParts: SubmissionOutcome = {
      message: outbound(),
      parts: 2,
      bindName: 'a',
      accepted: ids.map((smscMessageId, index) => ({
        partNo: index + 1,
        scope,
        smscMessageId,
        acceptedAt: at,
      })),
      at,
    };
    const single = accepted();
    await Promise.all([submits.add(twoParts), submits.add(single)]);

    await Promise.all([
      receipts.add({ scope, receipt: delivered(ids[0] ?? '') }),
      receipts.add({ scope, receipt: delivered(single.accepted[0]?.smscMessageId ?? '') }),
    ]);
    const afterFirst = await statusesOf([twoParts.message.messageId]);
    await receipts.add({
      scope,
      receipt: { smscMessageId: ids[1] ?? '', state: 'failed', stat: 'UNDELIV', err: '007' },
    });

    expect(states(afterFirst.get(twoParts.message.messageId))).toEqual(['submitted']);
    const statuses = await statusesOf([twoParts.message.messageId, single.message.messageId]);
    expect(states(statuses.get(single.message.messageId))).toEqual(['submitted', 'delivered']);
    expect(statuses.get(twoParts.message.messageId)?.at(-1)).toMatchObject({
      state: 'failed',
      smscMessageIds: ids,
      error: { receiptStat: 'UNDELIV', receiptError: '007' },
    });
  });

  it('when a parked receipt is over an hour old, then the sweep removes it and keeps younger ones', async () => {
    const { receipts } = groupCommits();
    const old = `stale-${randomBytes(4).toString('hex')}`;
    const young = `young-${randomBytes(4).toString('hex')}`;
    await receipts.add({
      scope,
      receipt: delivered(old),
      receivedAt: new Date(Date.now() - 61 * 60_000),
    });
    await receipts.add({ scope, receipt: delivered(young) });

    await removeStaleOrphans(pool);

    const { rows } = await pool.query<{ smsc_message_id: string }>(
      `SELECT "smsc_message_id" FROM "${SCHEMA}"."orphan_receipt" WHERE "smsc_message_id" = ANY($1::text[])`,
      [[old, young]],
    );
    expect(rows.map((row) => row.smsc_message_id)).toEqual([young]);
  });
});

describe('a reused SMSC message id (Postgres)', () => {
  it('when a new message is answered with the id of a delivered one, then it takes the mapping over and its receipt delivers it, leaving the old one unchanged', async () => {
    const { submits, receipts } = groupCommits();
    const smscId = `reused-${randomBytes(4).toString('hex')}`;
    const old = accepted(outbound(), smscId);
    await submits.add(old);
    expect(await receipts.add({ scope, receipt: delivered(smscId) })).toBe('applied');

    const fresh = accepted(outbound(), smscId);
    const recorded = await submits.add(fresh);
    const outcome = await receipts.add({ scope, receipt: delivered(smscId) });

    expect(recorded.reused).toEqual([
      {
        scope,
        smscMessageId: smscId,
        messageId: fresh.message.messageId,
        previousMessageId: old.message.messageId,
        previousFinalState: 'delivered',
      },
    ]);
    expect(outcome).toBe('applied');
    const statuses = await statusesOf([old.message.messageId, fresh.message.messageId]);
    expect(states(statuses.get(fresh.message.messageId))).toEqual(['submitted', 'delivered']);
    expect(states(statuses.get(old.message.messageId))).toEqual(['submitted', 'delivered']);
  });

  it("when the reused id's receipt overtakes the new submission's commit, then it is parked and the commit applies it", async () => {
    const { submits, receipts } = groupCommits();
    const smscId = `reused-${randomBytes(4).toString('hex')}`;
    await submits.add(accepted(outbound(), smscId));
    await receipts.add({ scope, receipt: delivered(smscId) });
    const fresh = accepted(outbound(), smscId);

    // The part under the id is the old, final one: this receipt cannot be told from a duplicate yet.
    await receipts.add({
      scope,
      receipt: { smscMessageId: smscId, state: 'failed', stat: 'UNDELIV', err: '001' },
    });
    await submits.add(fresh);

    const statuses = await statusesOf([fresh.message.messageId]);
    expect(statuses.get(fresh.message.messageId)?.at(-1)).toMatchObject({
      state: 'failed',
      error: { receiptStat: 'UNDELIV' },
    });
  });

  it('when a duplicate receipt of the old message was parked well before the id is reused, then the new message does not take it', async () => {
    const { submits, receipts } = groupCommits();
    const smscId = `reused-${randomBytes(4).toString('hex')}`;
    await submits.add(accepted(outbound(), smscId));
    await receipts.add({ scope, receipt: delivered(smscId) });
    const duplicate = await receipts.add({
      scope,
      receipt: { smscMessageId: smscId, state: 'failed', stat: 'UNDELIV', err: '001' },
    });
    const fresh = accepted(outbound(), smscId, new Date(Date.now() + 60_000));
    fresh.accepted[0] = { partNo: 1, scope, smscMessageId: smscId, acceptedAt: fresh.at };

    await submits.add(fresh);
    const statusesBefore = await statusesOf([fresh.message.messageId]);
    await receipts.add({ scope, receipt: delivered(smscId) });

    expect(duplicate).toBe('duplicate');
    expect(states(statusesBefore.get(fresh.message.messageId))).toEqual(['submitted']);
    const statuses = await statusesOf([fresh.message.messageId]);
    expect(states(statuses.get(fresh.message.messageId))).toEqual(['submitted', 'delivered']);
  });

  it('when the id is reused while the old message still waits for its receipt, then the newest submit wins and the old one is left to expire', async () => {
    const { submits, receipts } = groupCommits();
    const smscId = `reused-${randomBytes(4).toString('hex')}`;
    const old = accepted(outbound(), smscId);
    await submits.add(old);
    const fresh = accepted(outbound(), smscId);

    const recorded = await submits.add(fresh);
    await receipts.add({ scope, receipt: delivered(smscId) });

    expect(recorded.reused[0]).toMatchObject({
      previousMessageId: old.message.messageId,
      previousFinalState: null,
    });
    const statuses = await statusesOf([old.message.messageId, fresh.message.messageId]);
    expect(states(statuses.get(fresh.message.messageId))).toEqual(['submitted', 'delivered']);
    expect(states(statuses.get(old.message.messageId))).toEqual(['submitted']);
    const { rows } = await pool.query(
      `SELECT "expires_at" IS NOT NULL AS due FROM "${SCHEMA}"."submission" WHERE "message_id" = $1`,
      [old.message.messageId],
    );
    expect(rows[0]).toEqual({ due: true });
  });
});

describe('expiry without a receipt (Postgres)', () => {
  it("when a message's validity and grace pass without a receipt, then it is expired once, with a description, and a late receipt publishes nothing more", async () => {
    const { submits, receipts } = groupCommits();
    const at = new Date('2026-01-01T00:00:00.000Z');
    const waiting = accepted(outbound({ validityMinutes: 5 }), undefined, at);
    const noReport = accepted(outbound({ deliveryReport: false }), undefined, at);
    await submits.add(waiting);
    await submits.add(noReport);
    const deadline = at.getTime() + (5 + policy.graceMinutes) * 60_000;

    const early = await expireOverdueSubmissions(pool, { now: new Date(deadline - 1_000) });
    const due = await expireOverdueSubmissions(pool, { now: new Date(deadline + 1_000) });
    const again = await expireOverdueSubmissions(pool, { now: new Date(deadline + 2_000) });
    const late = await receipts.add({
      scope,
      receipt: delivered(waiting.accepted[0]?.smscMessageId ?? ''),
    });

    expect(early).not.toContain(waiting.message.messageId);
    expect(due).toContain(waiting.message.messageId);
    expect(due).not.toContain(noReport.message.messageId);
    expect(again).not.toContain(waiting.message.messageId);
    expect(late).toBe('applied');
    const statuses = await statusesOf([waiting.message.messageId]);
    expect(statuses.get(waiting.message.messageId)).toMatchObject([
      { state: 'submitted' },
      { state: 'expired', error: { description: NO_RECEIPT_DESCRIPTION } },
    ]);
  });

  it('when no validity is given, then the default validity plus the grace is the deadline', async () => {
    const { submits } = groupCommits();
    const at = new Date('2026-02-01T00:00:00.000Z');
    const message = accepted(outbound(), undefined, at);

    await submits.add(message);

    const { rows } = await pool.query<{ expires_at: Date }>(
      `SELECT "expires_at" FROM "${SCHEMA}"."submission" WHERE "message_id" = $1`,
      [message.message.messageId],
    );
    expect(rows[0]?.expires_at.getTime()).toBe(at.getTime() + (2880 + 60) * 60_000);
  });
});
