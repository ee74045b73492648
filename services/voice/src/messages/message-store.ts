import { randomUUID } from 'node:crypto';
import { isUuid, withTransaction } from '@msg/db';
import type pg from 'pg';
import { VOICE_SCHEMA } from '../schema.js';

/** A message to call, as the REST or the legacy interface accepted it. */
export interface NewVoiceMessage {
  accountId: string;
  source: 'rest' | 'legacy';
  recipient: string;
  callerId: string;
  text: string;
  /** Legacy Msg with its <break>/<prosody> markup; null for REST (markup read as text). */
  markup: string | null;
  language: string;
  gender: 'male' | 'female';
  instructions: string | null;
  machineDetection: boolean;
  playCount: number;
  clientReference: string | null;
}

export interface VoiceMessageStatus {
  transaction_id: string;
  status: 'accepted' | 'completed' | 'failed';
  created: string;
  duration_seconds: number | null;
  failure_code: number | null;
  client_reference: string | null;
}

type StatusRow = {
  transaction_id: string;
  status: VoiceMessageStatus['status'];
  created_at: Date;
  duration_seconds: number | null;
  failure_code: number | null;
  client_reference: string | null;
};

export interface MessageStore {
  /** Stores the message and its first attempt (due now) in one transaction. */
  accept(message: NewVoiceMessage): Promise<string>;
  /** The status of the account's message; undefined for an unknown id or another account's. */
  status(accountId: string, transactionId: string): Promise<VoiceMessageStatus | undefined>;
}

export function createMessageStore(pool: pg.Pool, now: () => Date): MessageStore {
  return {
    async accept(message) {
      const transactionId = randomUUID();
      const at = now();
      await withTransaction(pool, async (sql) => {
        await sql.query(
          `INSERT INTO "${VOICE_SCHEMA}"."messages" ("transaction_id", "account_id", "source",
             "recipient", "caller_id", "text", "markup", "language", "gender", "instructions",
             "machine_detection", "play_count", "client_reference", "created_at")
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
          [
            transactionId,
            message.accountId,
            message.source,
            message.recipient,
            message.callerId,
            message.text,
            message.markup,
            message.language,
            message.gender,
            message.instructions,
            message.machineDetection,
            message.playCount,
            message.clientReference,
            at,
          ],
        );
        await sql.query(
          `INSERT INTO "${VOICE_SCHEMA}"."attempts" ("transaction_id", "number", "due_at")
           VALUES ($1, 1, $2)`,
          [transactionId, at],
        );
      });
      return transactionId;
    },

    async status(accountId, transactionId) {
      if (!isUuid(transactionId)) return undefined;
      const { rows } = await pool.query<StatusRow>(
        `SELECT "transaction_id", "status", "created_at", "duration_seconds", "failure_code",
                "client_reference"
           FROM "${VOICE_SCHEMA}"."messages"
          WHERE "transaction_id" = $1::uuid AND "account_id" = $2`,
        [transactionId, accountId],
      );
      const row = rows[0];
      return (
        row && {
          transaction_id: row.transaction_id,
          status: row.status,
          created: row.created_at.toISOString(),
          duration_seconds: row.duration_seconds,
          failure_code: row.failure_code,
          client_reference: row.client_reference,
        }
      );
    },
  };
}
