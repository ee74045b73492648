import type { AccountState } from '@msg/contracts';
import type { Sql } from '@msg/db';
import { QuotaExceededError } from './errors.js';

/** What the quota reads of an account. */
export type QuotaAccount = Pick<AccountState, 'id' | 'numbersMonthlyQuota'>;

export interface Quota {
  /** Refuses (429 quota-exceeded) when the account's month is used up; counts nothing. */
  check(account: QuotaAccount, now: Date): Promise<void>;
  /** Counts one successful lookup; refuses when a concurrent lookup took the last one. */
  record(account: QuotaAccount, now: Date): Promise<void>;
  /** Lookups counted for the account in the month of `now`. */
  used(accountId: string, now: Date): Promise<number>;
}

function monthOf(now: Date): string {
  return `${now.toISOString().slice(0, 7)}-01`;
}

/** Seconds from `now` until the first of next month, 00:00 UTC. */
export function secondsUntilNextMonth(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  return Math.ceil((next - now.getTime()) / 1000);
}

/**
 * The monthly lookup quota (AccountState.numbersMonthlyQuota; null = unlimited), counted in
 * numbers.lookup_count per account and UTC month. Counting is one conditional upsert, so replicas
 * never count past the quota together. Only successful lookups are recorded (spec 7.6).
 */
export function createQuota(sql: Sql): Quota {
  const refuse = (quota: number, now: Date) =>
    new QuotaExceededError(secondsUntilNextMonth(now), quota);
  const used = async (accountId: string, now: Date) => {
    const { rows } = await sql.query<{ count: number }>(
      'SELECT count FROM numbers.lookup_count WHERE account_id = $1 AND month = $2',
      [accountId, monthOf(now)],
    );
    return rows[0]?.count ?? 0;
  };
  return {
    used,
    async check(account, now) {
      const quota = account.numbersMonthlyQuota;
      if (quota === null) return;
      if (quota <= 0 || (await used(account.id, now)) >= quota) throw refuse(quota, now);
    },
    async record(account, now) {
      const quota = account.numbersMonthlyQuota;
      const { rowCount } = await sql.query(
        `INSERT INTO numbers.lookup_count (account_id, month, count) VALUES ($1, $2, 1)
         ON CONFLICT (account_id, month) DO UPDATE SET count = lookup_count.count + 1
           WHERE $3::int IS NULL OR lookup_count.count < $3::int
         RETURNING count`,
        [account.id, monthOf(now), quota],
      );
      if (quota !== null && rowCount === 0) throw refuse(quota, now);
    },
  };
}
