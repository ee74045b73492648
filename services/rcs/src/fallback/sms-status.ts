import { type Bus, type Subscription, subscribeToSmsStatus } from '@msg/bus';
import type { SmsStatus } from '@msg/contracts';
import { isUuid, withTransaction } from '@msg/db';
import type { Logger } from '@msg/logger';
import type pg from 'pg';
import { RCS_SCHEMA } from '../schema.js';
import { failMessage, lockMessage } from './message-outcome.js';

/** SMS states that mean the SMS will not reach the phone. */
const SMS_FAILED = new Set<SmsStatus['state']>(['failed', 'expired']);

/**
 * Applies one report about a fallback SMS (source `rcs`): the SMS centre refused it or its
 * receipt says it failed or expired → the RCS message `failed` with `rcs.out.failed`
 * SMS_FALLBACK_FAILED. Only from `fallback_sms`, under the row lock, so a redelivered report
 * changes nothing (its event id is the same anyway). Answers whether it changed the message.
 */
export function createSmsStatusApplier(pool: pg.Pool, now: () => Date = () => new Date()) {
  return (status: SmsStatus): Promise<boolean> => {
    // Only uuids are ours (fallbackSmsId); anything else is no fallback SMS.
    if (!SMS_FAILED.has(status.state) || !isUuid(status.messageId)) return Promise.resolve(false);
    return withTransaction(pool, async (sql) => {
      const { rows } = await sql.query<{
        id: string;
        account_id: string;
        agent_id: string;
        client_message_id: string | null;
      }>(
        `SELECT "id", "account_id", "agent_id", "client_message_id" FROM "${RCS_SCHEMA}"."messages"
          WHERE "sms_transaction_id" = $1::uuid`,
        [status.messageId],
      );
      const row = rows[0];
      if (!row || (await lockMessage(sql, row.id))?.state !== 'fallback_sms') return false;
      const message = {
        id: row.id,
        accountId: row.account_id,
        agentId: row.agent_id,
        clientMessageId: row.client_message_id,
      };
      await failMessage(sql, message, 'SMS_FALLBACK_FAILED', now());
      return true;
    });
  };
}

/** Follows sms.status.v1 for the fallback SMS (source `rcs`), from the beginning. */
export function startSmsStatusConsumer({
  bus,
  pool,
  logger,
  groupId,
}: {
  bus: Bus;
  pool: pg.Pool;
  logger: Logger;
  groupId: string;
}): Promise<Subscription> {
  const log = logger.child({ component: 'rcs-sms-status' });
  const apply = createSmsStatusApplier(pool);
  return subscribeToSmsStatus(bus, {
    owner: 'rcs',
    groupId,
    fromBeginning: true,
    handler: async (status, event) => {
      const failed = await apply(status);
      log.debug('sms status handled', { eventId: event.id, state: status.state, failed });
    },
  });
}
