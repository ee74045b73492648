import { isUuid } from '@msg/db';
import { NotFoundError } from '@msg/http';
import type { PrismaClient } from '../generated/prisma/client.js';
import { publishAccount, withKeys } from './account-events.js';

/** One message to pay for (the debitAccount body's item). */
export interface DebitRequest {
  reference: string;
  parts: number;
}

export interface DebitOutcome {
  results: { reference: string; debited: boolean }[];
  /** Credits left after this call. */
  balance: number;
}

/**
 * Debits of prepaid balances, the one place a balance goes down. Each call runs in one
 * transaction holding the account's row lock (`SELECT ... FOR UPDATE`), so concurrent debits of one
 * account, from any service and any replica, are applied one after another against the true
 * balance: exactly as many parts are paid as were bought, and the balance never goes below zero
 * (a CHECK constraint stands behind that too). Items are paid in order as far as the balance goes;
 * the first that does not fit and every one after it are refused. A reference already debited
 * answers `debited: true` again and costs nothing (retries are safe). Postpaid accounts: every
 * item true, nothing recorded.
 *
 * When a debit empties the balance, the account's state is republished in the same transaction
 * (`billing.fundsAvailable: false` on accounts.v1), so directories learn of it without a
 * republish per debit.
 */
export function createDebits({ prisma }: { prisma: PrismaClient }) {
  return {
    async debit(accountId: string, items: readonly DebitRequest[]): Promise<DebitOutcome> {
      if (!isUuid(accountId)) throw new NotFoundError(`account ${accountId} not found`);
      return prisma.$transaction(
        async (tx) => {
          const [account] = await tx.$queryRaw<{ billing_mode: string; balance: bigint }[]>`
            SELECT billing_mode, balance FROM admin.account WHERE id = ${accountId}::uuid FOR UPDATE`;
          if (!account) throw new NotFoundError(`account ${accountId} not found`);
          const before = account.balance;
          if (account.billing_mode !== 'prepaid') {
            return {
              results: items.map(({ reference }) => ({ reference, debited: true })),
              balance: Number(before),
            };
          }
          const done = await tx.accountDebit.findMany({
            where: { accountId, reference: { in: items.map((item) => item.reference) } },
            select: { reference: true },
          });
          const debited = new Set(done.map((d) => d.reference));
          const fresh: DebitRequest[] = [];
          let balance = before;
          let refused = false;
          const results = items.map(({ reference, parts }) => {
            if (debited.has(reference)) return { reference, debited: true };
            if (refused || balance < BigInt(parts)) {
              refused = true;
              return { reference, debited: false };
            }
            balance -= BigInt(parts);
            debited.add(reference);
            fresh.push({ reference, parts });
            return { reference, debited: true };
          });
          if (fresh.length > 0) {
            await tx.accountDebit.createMany({
              data: fresh.map((item) => ({ accountId, ...item })),
            });
            const spent = before - balance;
            const emptied = balance === 0n;
            const record = await tx.account.update({
              where: { id: accountId },
              // Relative, under the row lock: the CHECK (balance >= 0) can never fire.
              data: {
                balance: { decrement: spent },
                ...(emptied && { version: { increment: 1 } }),
              },
              include: withKeys,
            });
            if (emptied) await publishAccount(tx, record);
          }
          return { results, balance: Number(balance) };
        },
        // Debits of one account queue on its row lock: wait for the lock, not for a timeout.
        { maxWait: 30_000, timeout: 30_000 },
      );
    },

    /**
     * Gives back what a debit took, when its message could not be accepted after all (the
     * sending service failed to store it, or refused it for another reason after paying). The
     * debit record goes too, so the reference may be paid again. A reference never debited, or
     * already refunded, gives back nothing (`refunded: false`). A refund that refills an empty
     * balance republishes the account (funds available again).
     */
    async refund(accountId: string, reference: string): Promise<RefundOutcome> {
      if (!isUuid(accountId)) throw new NotFoundError(`account ${accountId} not found`);
      return prisma.$transaction(
        async (tx) => {
          const [account] = await tx.$queryRaw<{ balance: bigint }[]>`
            SELECT balance FROM admin.account WHERE id = ${accountId}::uuid FOR UPDATE`;
          if (!account) throw new NotFoundError(`account ${accountId} not found`);
          const key = { accountId_reference: { accountId, reference } };
          const debit = await tx.accountDebit.findUnique({ where: key, select: { parts: true } });
          if (!debit) return { refunded: false, balance: Number(account.balance) };
          await tx.accountDebit.delete({ where: key });
          const refilled = account.balance === 0n;
          const record = await tx.account.update({
            where: { id: accountId },
            data: {
              balance: { increment: BigInt(debit.parts) },
              ...(refilled && { version: { increment: 1 } }),
            },
            include: withKeys,
          });
          if (refilled) await publishAccount(tx, record);
          return { refunded: true, balance: Number(record.balance) };
        },
        { maxWait: 30_000, timeout: 30_000 },
      );
    },
  };
}

export interface RefundOutcome {
  refunded: boolean;
  /** Credits left after this call. */
  balance: number;
}

export type Debits = ReturnType<typeof createDebits>;
