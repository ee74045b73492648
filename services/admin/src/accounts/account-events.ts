import { enqueueOutbox } from '@msg/bus';
import { ACCOUNT_STATE_EVENT, makeEvent, Topics } from '@msg/contracts';
import { prismaSql } from '@msg/db';
import type { Prisma } from '../generated/prisma/client.js';
import { type AccountRecord, toAccountState } from './account-record.js';

/** The Postgres schema that holds the admin service's tables (and its outbox). */
export const ADMIN_SCHEMA = 'admin';

/** Prisma `include` that reads an account as an AccountRecord (with its API keys). */
export const withKeys = { apiKeys: { orderBy: { createdAt: 'asc' } } } as const;

/**
 * Queues the account's whole state on accounts.v1 in the caller's transaction (outbox), so the
 * change and its event commit together.
 */
export async function publishAccount(
  tx: Prisma.TransactionClient,
  record: AccountRecord,
  traceId?: string,
): Promise<void> {
  const event = makeEvent(ACCOUNT_STATE_EVENT, toAccountState(record), {
    accountId: record.id,
    ...(traceId && { traceId }),
  });
  await enqueueOutbox(prismaSql(tx), ADMIN_SCHEMA, Topics.accounts, [
    { key: record.id, value: event },
  ]);
}
