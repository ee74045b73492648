import type { OptOutChange } from '@msg/contracts';
import { prismaSql, type Sql } from '@msg/db';
import { NotFoundError, ValidationError } from '@msg/http';
import { optOutMessage, optOutTable, recordOptOut } from '@msg/optout';
import { normalizeMsisdn } from '@msg/phone';
import { ADMIN_SCHEMA, findAccountId } from '../accounts/accounts.js';
import type { PrismaClient } from '../generated/prisma/client.js';

/** An entry of an account's opt-out list as the operator API shows it (the `OptOut` schema). */
export interface OptOutView {
  msisdn: string;
  source: 'inbound' | 'operator';
  keyword: string | null;
  at: string;
}

interface OptOutRow extends Record<string, unknown> {
  msisdn: string;
  source: string;
  keyword: string | null;
  changed_at: Date | string;
  opted_out: boolean;
}

const TABLE = optOutTable(ADMIN_SCHEMA);

function toView(row: OptOutRow): OptOutView {
  return {
    msisdn: row.msisdn,
    source: row.source === 'inbound' ? 'inbound' : 'operator',
    keyword: row.keyword,
    at: new Date(row.changed_at).toISOString(),
  };
}

/** The recipient of a path, as POST /v1/sms/send normalises `to`; 400 naming the rule otherwise. */
function recipient(msisdn: string): string {
  const number = normalizeMsisdn(msisdn);
  if (!number.ok) throw ValidationError.field(['path', 'msisdn'], number.reason, number.message);
  return number.e164;
}

async function current(sql: Sql, accountId: string, msisdn: string) {
  const { rows } = await sql.query<OptOutRow>(
    `SELECT "msisdn", "source", "keyword", "changed_at", "opted_out" FROM ${TABLE}
      WHERE "account_id" = $1 AND "msisdn" = $2 FOR UPDATE`,
    [accountId, msisdn],
  );
  return rows[0];
}

/**
 * The operators' side of the opt-out lists. The list is admin's replica of optouts.v1 (table
 * admin.opt_out, fed by the consumer in service.ts with the stop words other services saw); an
 * operator's edit writes that row and its optouts.v1 event in one transaction (outbox), and the
 * consumer later re-reads its own event as a no-op (same `at`). Nothing admin consumes is
 * published again, so there is no loop.
 */
export function createOptOuts({ prisma }: { prisma: PrismaClient }) {
  /** Writes the change and its event; returns the entry as the change leaves it. */
  async function change(
    ref: string,
    msisdn: string,
    optedOut: boolean,
    traceId?: string,
  ): Promise<OptOutView | undefined> {
    const number = recipient(msisdn);
    return prisma.$transaction(async (tx) => {
      const sql = prismaSql(tx);
      const accountId = await findAccountId(tx, ref);
      const row = await current(sql, accountId, number);
      if (optedOut && row?.opted_out) return toView(row);
      if (!optedOut && !row?.opted_out) {
        throw new NotFoundError(`${number} is not on the opt-out list of account ${ref}`);
      }
      // Later than what the row holds, whatever the clocks: replicas keep the latest `at`, and an
      // operator's edit must win over the change it was made against.
      const held = row ? new Date(row.changed_at).getTime() + 1 : 0;
      const at = new Date(Math.max(Date.now(), held)).toISOString();
      const optOut: OptOutChange = { accountId, msisdn: number, optedOut, source: 'operator', at };
      await recordOptOut(sql, ADMIN_SCHEMA, optOutMessage(optOut, traceId ? { traceId } : {}));
      return { msisdn: number, source: 'operator', keyword: null, at };
    });
  }

  return {
    /** One page of the account's list, newest first, and its length. */
    async list(ref: string, { limit, offset }: { limit: number; offset: number }) {
      const accountId = await findAccountId(prisma, ref);
      const sql = prismaSql(prisma);
      const [page, count] = await Promise.all([
        sql.query<OptOutRow>(
          `SELECT "msisdn", "source", "keyword", "changed_at", "opted_out" FROM ${TABLE}
            WHERE "account_id" = $1 AND "opted_out"
            ORDER BY "changed_at" DESC, "msisdn" LIMIT $2 OFFSET $3`,
          [accountId, limit, offset],
        ),
        sql.query<{ total: number }>(
          `SELECT count(*)::int AS "total" FROM ${TABLE} WHERE "account_id" = $1 AND "opted_out"`,
          [accountId],
        ),
      ]);
      return { optOuts: page.rows.map(toView), total: count.rows[0]?.total ?? 0 };
    },

    /** Puts the recipient on the list (already there: the entry as it was). */
    async add(ref: string, msisdn: string, traceId?: string): Promise<OptOutView> {
      const view = await change(ref, msisdn, true, traceId);
      if (!view) throw new Error('opt-out entry missing after add');
      return view;
    },

    /** Takes the recipient off the list; 404 when it is not on it. */
    async remove(ref: string, msisdn: string, traceId?: string): Promise<void> {
      await change(ref, msisdn, false, traceId);
    },
  };
}

export type OptOuts = ReturnType<typeof createOptOuts>;
