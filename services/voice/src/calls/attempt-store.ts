import { randomUUID } from 'node:crypto';
import { enqueueOutbox } from '@msg/bus';
import { type CallbackRequest, callbackRequestMessage, Topics } from '@msg/contracts';
import { withTransaction } from '@msg/db';
import type pg from 'pg';
import { VOICE_SCHEMA } from '../schema.js';
import type { NextStep } from './outcome.js';

/** An attempt a worker holds under its lease, with the message it calls for. */
export interface ClaimedAttempt {
  transactionId: string;
  accountId: string;
  number: number;
  /** Unique per claim: only this claim may record the attempt's outcome. */
  claim: string;
  recipient: string;
  callerId: string;
  text: string;
  markup: string | null;
  language: string;
  gender: 'male' | 'female';
  machineDetection: boolean;
  playCount: number;
  clientReference: string | null;
}

type ClaimRow = {
  transaction_id: string;
  account_id: string;
  number: number;
  claimed_by: string;
  recipient: string;
  caller_id: string;
  text: string;
  markup: string | null;
  language: string;
  gender: 'male' | 'female';
  machine_detection: boolean;
  play_count: number;
  client_reference: string | null;
};

export interface AttemptFinish {
  attempt: ClaimedAttempt;
  outcome: string;
  sipStatus: number | null;
  step: NextStep;
  /** When the next attempt is due (a reattempt). */
  nextDueAt: Date;
  /** The delivery report to send (a final step with a report URL). */
  report: CallbackRequest | null;
  at: Date;
}

export interface AttemptStore {
  /**
   * Claims up to `limit` due attempts that no live lease holds (FOR UPDATE SKIP LOCKED: two
   * workers never claim one attempt; an expired lease — its worker died — is retaken).
   */
  claimDue(now: Date, limit: number, leaseMs: number): Promise<ClaimedAttempt[]>;
  /**
   * Records the attempt's outcome and the next step in one transaction: the next attempt, or
   * the message's end, its event and its report. False when the claim was lost (the lease
   * expired and another worker retook the attempt): nothing is written then.
   */
  finish(finish: AttemptFinish): Promise<boolean>;
}

export function createAttemptStore(pool: pg.Pool): AttemptStore {
  const t = (name: string) => `"${VOICE_SCHEMA}"."${name}"`;
  return {
    async claimDue(now, limit, leaseMs) {
      const claim = randomUUID();
      const { rows } = await pool.query<ClaimRow>(
        `WITH due AS (
           SELECT "transaction_id", "number" FROM ${t('attempts')}
            WHERE "outcome" IS NULL AND "due_at" <= $1
              AND ("lease_until" IS NULL OR "lease_until" < $1)
            ORDER BY "due_at" LIMIT $2
            FOR UPDATE SKIP LOCKED),
         claimed AS (
           UPDATE ${t('attempts')} a
              SET "claimed_by" = $3 || ':' || a."transaction_id" || ':' || a."number",
                  "lease_until" = $1::timestamptz + $4 * interval '1 millisecond',
                  "started_at" = $1
             FROM due WHERE a."transaction_id" = due."transaction_id" AND a."number" = due."number"
           RETURNING a."transaction_id", a."number", a."claimed_by")
         SELECT c."transaction_id", m."account_id", c."number", c."claimed_by", m."recipient",
                m."caller_id", m."text", m."markup", m."language", m."gender",
                m."machine_detection", m."play_count", m."client_reference"
           FROM claimed c JOIN ${t('messages')} m USING ("transaction_id")`,
        [now, limit, claim, leaseMs],
      );
      return rows.map((row) => ({
        transactionId: row.transaction_id,
        accountId: row.account_id,
        number: row.number,
        claim: row.claimed_by,
        recipient: row.recipient,
        callerId: row.caller_id,
        text: row.text,
        markup: row.markup,
        language: row.language,
        gender: row.gender,
        machineDetection: row.machine_detection,
        playCount: row.play_count,
        clientReference: row.client_reference,
      }));
    },

    async finish({ attempt, outcome, sipStatus, step, nextDueAt, report, at }) {
      return withTransaction(pool, async (sql) => {
        const recorded = await sql.query(
          `UPDATE ${t('attempts')} SET "outcome" = $4, "sip_status" = $5, "finished_at" = $6,
                  "lease_until" = NULL
            WHERE "transaction_id" = $1 AND "number" = $2 AND "claimed_by" = $3
              AND "outcome" IS NULL`,
          [attempt.transactionId, attempt.number, attempt.claim, outcome, sipStatus, at],
        );
        if (recorded.rowCount !== 1) return false;
        if (step.kind === 'reattempt') {
          await sql.query(
            `INSERT INTO ${t('attempts')} ("transaction_id", "number", "due_at") VALUES ($1, $2, $3)
             ON CONFLICT DO NOTHING`,
            [attempt.transactionId, attempt.number + 1, nextDueAt],
          );
          return true;
        }
        const ended = await sql.query(
          `UPDATE ${t('messages')} SET "status" = $2, "failure_code" = $3, "duration_seconds" = $4,
                  "listened_seconds" = $5, "finished_at" = $6
            WHERE "transaction_id" = $1 AND "status" = 'accepted'`,
          [
            attempt.transactionId,
            step.status,
            step.failureCode,
            step.durationSeconds,
            step.listenedSeconds,
            at,
          ],
        );
        if (ended.rowCount !== 1) return true;
        if (report) {
          // Once: only the transaction that ended the message (status was accepted) gets here.
          await enqueueOutbox(sql, VOICE_SCHEMA, Topics.callbacks, [
            callbackRequestMessage(report),
          ]);
        }
        return true;
      });
    },
  };
}
