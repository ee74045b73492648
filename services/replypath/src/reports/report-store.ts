import { type SmsState, statesAdvancedBy } from '@msg/contracts';
import { isUuid, type Sql } from '@msg/db';
import { REPLYPATH_SCHEMA } from '../schema.js';
import type { ReportedMessage } from './delivery-report.js';

export interface StatusTarget extends ReportedMessage {
  deliveryReport: boolean;
}

/** The columns a report target is read from (messages and reservations both have them). */
type TargetRow = {
  transaction_id: string;
  account_id: string;
  recipient: string;
  number: string;
  dlr: boolean;
};

/** Whether the id can be a reply-path message's (a uuid); queries are not tried with others. */
export const isTransactionId = (id: string) => isUuid(id);

/**
 * Moves a message to `state` if that advances it (the one SMS state order of @msg/contracts:
 * accepted → submitted → a final state; a final state is never left, so a late `submitted` or a
 * second final report changes nothing) and answers the message when it changed; undefined when
 * it did not change or is not stored.
 */
export async function advanceMessageState(
  sql: Sql,
  {
    transactionId,
    accountId,
    state,
  }: { transactionId: string; accountId: string; state: SmsState },
): Promise<StatusTarget | undefined> {
  const { rows } = await sql.query<TargetRow>(
    `UPDATE "${REPLYPATH_SCHEMA}"."messages" SET "state" = $3
      WHERE "transaction_id" = $1::uuid AND "account_id"::text = $2
        AND "state" = ANY($4::text[])
      RETURNING "transaction_id", "account_id", "recipient", "number", "dlr"`,
    [transactionId, accountId, state, statesAdvancedBy(state)],
  );
  return rows[0] && targetOf(rows[0]);
}

function targetOf(row: TargetRow): StatusTarget {
  return {
    transactionId: row.transaction_id,
    accountId: row.account_id,
    recipient: row.recipient,
    originator: row.number,
    deliveryReport: row.dlr,
  };
}

/**
 * The report target of a message whose record is gone (VP over — VP 0 at once —, or released by
 * its OneShot reply) while its reservation row is kept (its quarantine): the reservation holds
 * the account, the pair and the DLR flag. Undefined once that is gone too, or when the record is
 * still there (then the report did not advance it).
 */
export async function removedMessageTarget(
  sql: Sql,
  { transactionId, accountId }: { transactionId: string; accountId: string },
): Promise<StatusTarget | undefined> {
  const { rows } = await sql.query<TargetRow>(
    `SELECT r."transaction_id", r."account_id", r."recipient", r."number", r."dlr"
       FROM "${REPLYPATH_SCHEMA}"."reservations" r
      WHERE r."transaction_id" = $1::uuid AND r."account_id"::text = $2
        AND NOT EXISTS (SELECT 1 FROM "${REPLYPATH_SCHEMA}"."messages" m
                         WHERE m."transaction_id" = r."transaction_id")`,
    [transactionId, accountId],
  );
  return rows[0] && targetOf(rows[0]);
}
