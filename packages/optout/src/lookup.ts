import type { Sql } from '@msg/db';
import { optOutTable } from './replica.js';

/**
 * Which of `msisdns` opted out of `accountId`'s messages: one statement on the replica's primary
 * key, however many numbers (a batch chunk asks once).
 */
export async function optedOutAmong(
  sql: Sql,
  schema: string,
  accountId: string,
  msisdns: readonly string[],
): Promise<Set<string>> {
  if (msisdns.length === 0) return new Set();
  const { rows } = await sql.query<{ msisdn: string }>(
    `SELECT "msisdn" FROM ${optOutTable(schema)}
      WHERE "account_id" = $1 AND "msisdn" = ANY($2::text[]) AND "opted_out"`,
    [accountId, [...new Set(msisdns)]],
  );
  return new Set(rows.map((row) => row.msisdn));
}

/** Whether `msisdn` opted out of `accountId`'s messages. */
export async function isOptedOut(
  sql: Sql,
  schema: string,
  accountId: string,
  msisdn: string,
): Promise<boolean> {
  return (await optedOutAmong(sql, schema, accountId, [msisdn])).has(msisdn);
}

/** A (account, recipient) pair; `optOutKey` of @msg/contracts names it. */
export interface Recipient {
  accountId: string;
  msisdn: string;
}

/**
 * Which of `recipients` (of any accounts: sends that arrived together) opted out, as
 * `<accountId>:<msisdn>` keys. One statement for all.
 */
export async function optedOutPairs(
  sql: Sql,
  schema: string,
  recipients: readonly Recipient[],
): Promise<Set<string>> {
  if (recipients.length === 0) return new Set();
  const { rows } = await sql.query<{ key: string }>(
    `SELECT o."account_id" || ':' || o."msisdn" AS "key"
       FROM ${optOutTable(schema)} AS o
       JOIN unnest($1::text[], $2::text[]) AS r("account_id", "msisdn")
         ON o."account_id" = r."account_id" AND o."msisdn" = r."msisdn"
      WHERE o."opted_out"`,
    [recipients.map((r) => r.accountId), recipients.map((r) => r.msisdn)],
  );
  return new Set(rows.map((row) => row.key));
}
