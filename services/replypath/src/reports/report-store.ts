import type { Sql } from '@msg/db';
import { REPLYPATH_SCHEMA } from '../schema.js';
import type { ReportedMessage } from './delivery-report.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface StatusTarget extends ReportedMessage {
  deliveryReport: boolean;
}

/**
 * Moves a message to `state` if that advances it (accepted → submitted → a final state; a final
 * state is never left, so a late `submitted` or a second final report changes nothing) and
 * answers the message when it changed. A message already removed (expired, or released after its
 * OneShot reply) answers undefined; so does an id that is no uuid (no reply-path message has it).
 */
export async function advanceMessageState(
  sql: Sql,
  { transactionId, accountId, state }: { transactionId: string; accountId: string; state: string },
): Promise<StatusTarget | undefined> {
  if (!UUID.test(transactionId)) return undefined;
  const { rows } = await sql.query<{
    transaction_id: string;
    account_id: string;
    recipient: string;
    number: string;
    dlr: boolean;
  }>(
    `UPDATE "${REPLYPATH_SCHEMA}"."messages" SET "state" = $3
      WHERE "transaction_id" = $1::uuid AND "account_id"::text = $2
        AND ("state" = 'accepted' OR ("state" = 'submitted' AND $3 <> 'submitted'))
      RETURNING "transaction_id", "account_id", "recipient", "number", "dlr"`,
    [transactionId, accountId, state],
  );
  const row = rows[0];
  return (
    row && {
      transactionId: row.transaction_id,
      accountId: row.account_id,
      recipient: row.recipient,
      originator: row.number,
      deliveryReport: row.dlr,
    }
  );
}
