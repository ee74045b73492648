import { randomUUID } from 'node:crypto';
import type { Sql } from '@msg/db';
import { EMPTY_POOL_RETRY_SECONDS, PoolExhaustedError } from './pool-exhausted.js';
import { insertReservation, type Reservation } from './reservation-store.js';

/** One message to one recipient that needs a number. */
export interface ReservationRequest {
  recipient: string;
  transactionId: string;
  accountId: string;
  oneShot: boolean;
  dlr: boolean;
  /** Reply window in minutes (VP); 0 = no window. */
  vpMinutes: number;
}

export interface AllocationOptions {
  at: Date;
  /** How long a pair stays blocked after its window. */
  quarantineMs: number;
}

const MINUTE_MS = 60_000;

/**
 * How a candidate number row is locked: `skip` passes over numbers another transaction is
 * allocating right now (to another recipient), `wait` queues behind them (only when skipping
 * found nothing, so a busy pool is never mistaken for an exhausted one), `none` for a dry run.
 */
export type LockMode = 'skip' | 'wait' | 'none';

const LOCKING: Record<LockMode, string> = {
  skip: 'FOR UPDATE OF "n" SKIP LOCKED',
  wait: 'FOR UPDATE OF "n"',
  none: '',
};

/**
 * The least recently allocated enabled number that no reservation of `$1` (recipient) holds at
 * `$2` (window or quarantine), leaving out `$3` (numbers a dry run already chose). Exported so the
 * benchmark (bench/replypath.bench.mjs) EXPLAINs the very statement allocations run.
 */
export function freeNumberQuery(lock: LockMode): string {
  return `SELECT "n"."number" FROM "replypath"."pool_numbers" "n"
      WHERE "n"."enabled" AND "n"."number" <> ALL($3::text[])
        AND NOT EXISTS (SELECT 1 FROM "replypath"."reservations" "r"
                         WHERE "r"."recipient" = $1 AND "r"."number" = "n"."number"
                           AND "r"."quarantine_until" > $2)
      ORDER BY "n"."last_allocated_at" ASC NULLS FIRST, "n"."number"
      LIMIT 1 ${LOCKING[lock]}`;
}

async function freeNumber(
  sql: Sql,
  recipient: string,
  at: Date,
  lock: LockMode,
  exclude: string[] = [],
): Promise<string | undefined> {
  const { rows } = await sql.query<{ number: string }>(freeNumberQuery(lock), [
    recipient,
    at,
    exclude,
  ]);
  return rows[0]?.number;
}

/**
 * Seconds until the first number held for `recipient` becomes free: the earliest end of
 * quarantine among the reservations that block it on enabled numbers.
 */
export async function secondsUntilFree(sql: Sql, recipient: string, at: Date): Promise<number> {
  const { rows } = await sql.query<{ freeAt: Date | null }>(
    `SELECT min("r"."quarantine_until") AS "freeAt"
       FROM "replypath"."reservations" "r"
       JOIN "replypath"."pool_numbers" "n" ON "n"."number" = "r"."number"
      WHERE "n"."enabled" AND "r"."recipient" = $1 AND "r"."quarantine_until" > $2`,
    [recipient, at],
  );
  const freeAt = rows[0]?.freeAt;
  if (!freeAt) return EMPTY_POOL_RETRY_SECONDS;
  return Math.max(1, Math.ceil((freeAt.getTime() - at.getTime()) / 1000));
}

/**
 * Serialises allocations per recipient, across replicas, until the transaction ends: the check
 * "no reservation of this recipient holds the number" and the insert are then never raced by
 * another allocation for the same recipient. Recipients are locked in sorted order, so two
 * requests naming the same recipients never deadlock.
 */
async function lockRecipients(sql: Sql, recipients: string[]): Promise<void> {
  await sql.query(
    `SELECT pg_advisory_xact_lock(hashtextextended('replypath.recipient:' || "r", 0))
       FROM (SELECT DISTINCT unnest($1::text[]) AS "r" ORDER BY 1) AS "recipients"`,
    [recipients],
  );
}

/**
 * Allocates a number to every request, in order, inside the caller's transaction (`sql` must be
 * the transaction's client): least recently used first, marks it used, writes the reservation.
 * The exclusion constraint of the table is the guarantee; the per-recipient lock keeps
 * concurrent allocations for one recipient from colliding on it. Throws PoolExhaustedError
 * (429) when a recipient has no number free — the caller rolls back, so a request with several
 * recipients allocates all or nothing.
 */
export async function allocateReservations(
  sql: Sql,
  requests: ReservationRequest[],
  { at, quarantineMs }: AllocationOptions,
): Promise<Reservation[]> {
  await lockRecipients(
    sql,
    requests.map((r) => r.recipient),
  );
  const reservations: Reservation[] = [];
  for (const request of requests) {
    const number =
      (await freeNumber(sql, request.recipient, at, 'skip')) ??
      (await freeNumber(sql, request.recipient, at, 'wait'));
    if (!number) throw new PoolExhaustedError(await secondsUntilFree(sql, request.recipient, at));
    await sql.query(
      `UPDATE "replypath"."pool_numbers" SET "last_allocated_at" = $2 WHERE "number" = $1`,
      [number, at],
    );
    const endsAt = new Date(at.getTime() + request.vpMinutes * MINUTE_MS);
    const reservation: Reservation = {
      id: randomUUID(),
      number,
      recipient: request.recipient,
      transactionId: request.transactionId,
      accountId: request.accountId,
      oneShot: request.oneShot,
      dlr: request.dlr,
      startsAt: at,
      endsAt,
      quarantineUntil: new Date(endsAt.getTime() + quarantineMs),
      releasedAt: null,
    };
    await insertReservation(sql, reservation);
    reservations.push(reservation);
  }
  return reservations;
}

/**
 * What allocateReservations would choose now, without locking or writing anything (the dry run
 * of `instantiate=false`). Throws PoolExhaustedError as the real allocation would.
 */
export async function previewAllocation(
  sql: Sql,
  recipients: string[],
  at: Date,
): Promise<string[]> {
  const chosen: string[] = [];
  for (const [i, recipient] of recipients.entries()) {
    // A recipient named twice gets two numbers, as two messages would.
    const taken = chosen.filter((_, j) => recipients[j] === recipient);
    const number = await freeNumber(sql, recipient, at, 'none', taken);
    if (!number) throw new PoolExhaustedError(await secondsUntilFree(sql, recipient, at));
    chosen[i] = number;
  }
  return chosen;
}
