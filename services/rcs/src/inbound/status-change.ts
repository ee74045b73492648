import { isUuid } from '@msg/db';
import type pg from 'pg';
import { RCS_SCHEMA } from '../schema.js';

const MESSAGES = `"${RCS_SCHEMA}"."messages"`;

/** The message a DELIVERED / READ push moved. */
export interface StatusChange {
  messageId: string;
  accountId: string;
  clientMessageId: string | null;
}

export type StatusChangeResult =
  | ({ outcome: 'changed' } & StatusChange)
  | { outcome: 'unknown_message' | 'stale' };

/**
 * What each push may move the state from (shared RCS decision: states only move forward;
 * failed, fallback_sms and revoked are final, a later DELIVERED is ignored then).
 */
const RULES = {
  DELIVERED: { column: 'delivered_at', to: 'delivered', from: ['queued', 'sent'] },
  READ: { column: 'read_at', to: 'read', from: ['queued', 'sent', 'delivered'] },
} as const;

/** States a message is in once nothing RBM says can change it. */
const FINAL = ['failed', 'fallback_sms', 'revoked', 'simulated'];

/**
 * Applies RBM's DELIVERED or READ to our message (RBM's messageId IS our message id). Each is
 * reported once: `delivered_at` / `read_at` record it, so a READ that overtook its DELIVERED
 * still yields the delivered event (the state stays `read`), and a second DELIVERED is 'stale'.
 */
export async function statusChange(
  client: pg.PoolClient,
  agentId: string,
  eventType: keyof typeof RULES,
  messageId: string | undefined,
): Promise<StatusChangeResult> {
  if (messageId === undefined || !isUuid(messageId)) return { outcome: 'unknown_message' };
  const { rows } = await client.query<{
    account_id: string;
    client_message_id: string | null;
    state: string;
    reported: Date | null;
  }>(
    `SELECT "account_id", "client_message_id", "state", "${RULES[eventType].column}" AS "reported"
       FROM ${MESSAGES} WHERE "id" = $1 AND "agent_id" = $2 FOR UPDATE`,
    [messageId, agentId],
  );
  const row = rows[0];
  if (!row) return { outcome: 'unknown_message' };
  if (row.reported !== null || FINAL.includes(row.state)) return { outcome: 'stale' };
  const rule = RULES[eventType];
  await client.query(
    `UPDATE ${MESSAGES}
        SET "${rule.column}" = now(),
            "state" = CASE WHEN "state" = ANY($2::text[]) THEN $3 ELSE "state" END
      WHERE "id" = $1`,
    [messageId, rule.from, rule.to],
  );
  return {
    outcome: 'changed',
    messageId,
    accountId: row.account_id,
    clientMessageId: row.client_message_id,
  };
}
