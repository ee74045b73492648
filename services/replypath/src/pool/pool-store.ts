import type { Sql } from '@msg/db';
import { withTransaction } from '@msg/db';
import { ConflictError, NotFoundError } from '@msg/http';
import type pg from 'pg';

/** A pool number and how it is held now (the list of the admin API and the CLI). */
export interface PoolNumberState {
  number: string;
  enabled: boolean;
  addedAt: string;
  lastAllocatedAt?: string;
  /** Reservations whose reply window is open at the time asked. */
  activeReservations: number;
  /** Reservations past their window whose pair is still blocked. */
  quarantinedReservations: number;
}

interface StateRow extends Record<string, unknown> {
  number: string;
  enabled: boolean;
  addedAt: Date;
  lastAllocatedAt: Date | null;
  active: number;
  quarantined: number;
}

const toState = (row: StateRow): PoolNumberState => ({
  number: row.number,
  enabled: row.enabled,
  addedAt: row.addedAt.toISOString(),
  ...(row.lastAllocatedAt && { lastAllocatedAt: row.lastAllocatedAt.toISOString() }),
  activeReservations: row.active,
  quarantinedReservations: row.quarantined,
});

const STATE_QUERY = `
  SELECT "n"."number", "n"."enabled", "n"."added_at" AS "addedAt",
         "n"."last_allocated_at" AS "lastAllocatedAt",
         count(*) FILTER (WHERE "r"."ends_at" > $1)::int AS "active",
         count(*) FILTER (WHERE "r"."ends_at" <= $1)::int AS "quarantined"
    FROM "replypath"."pool_numbers" "n"
    LEFT JOIN "replypath"."reservations" "r"
      ON "r"."number" = "n"."number" AND "r"."quarantine_until" > $1`;

/**
 * The operator's side of the pool: add, list, enable/disable, remove. Numbers arrive here
 * already normalised to E.164 (pool-numbers.ts).
 */
export function createPoolStore(pool: pg.Pool, now: () => Date = () => new Date()) {
  return {
    /** Adds numbers; those already present are left as they are. */
    async add(numbers: string[]): Promise<{ added: string[]; existing: string[] }> {
      const { rows } = await pool.query<{ number: string }>(
        `INSERT INTO "replypath"."pool_numbers" ("number", "added_at")
         SELECT DISTINCT unnest($1::text[]), $2::timestamptz
         ON CONFLICT ("number") DO NOTHING
         RETURNING "number"`,
        [numbers, now()],
      );
      const added = new Set(rows.map((r) => r.number));
      const unique = [...new Set(numbers)];
      return {
        added: unique.filter((n) => added.has(n)),
        existing: unique.filter((n) => !added.has(n)),
      };
    },

    async list(): Promise<PoolNumberState[]> {
      const { rows } = await pool.query<StateRow>(
        `${STATE_QUERY} GROUP BY "n"."number" ORDER BY "n"."number"`,
        [now()],
      );
      return rows.map(toState);
    },

    async get(number: string, sql: Sql = pool): Promise<PoolNumberState> {
      const { rows } = await sql.query<StateRow>(
        `${STATE_QUERY} WHERE "n"."number" = $2 GROUP BY "n"."number"`,
        [now(), number],
      );
      const row = rows[0];
      if (!row) throw new NotFoundError(`${number} is not in the reply-path pool`);
      return toState(row);
    },

    /** A disabled number is not allocated again; its reservations run to their end. */
    async setEnabled(number: string, enabled: boolean): Promise<PoolNumberState> {
      await pool.query(`UPDATE "replypath"."pool_numbers" SET "enabled" = $2 WHERE "number" = $1`, [
        number,
        enabled,
      ]);
      return this.get(number);
    },

    /**
     * Removes a number no reservation holds any more. Refused (409) while one is active or
     * quarantined: a reply may still arrive for it, and the pair must stay blocked. The number's
     * row is locked first, so an allocation in flight (which locks it too) finishes before the
     * check, and none starts after it.
     */
    async remove(number: string): Promise<void> {
      await withTransaction(pool, async (client) => {
        const locked = await client.query(
          `SELECT 1 FROM "replypath"."pool_numbers" WHERE "number" = $1 FOR UPDATE`,
          [number],
        );
        if (locked.rowCount === 0)
          throw new NotFoundError(`${number} is not in the reply-path pool`);
        const state = await this.get(number, client);
        const holding = state.activeReservations + state.quarantinedReservations;
        if (holding > 0) {
          throw new ConflictError(
            `${number} still holds ${holding} reservation(s) (active or quarantined); disable it and remove it once they are over`,
          );
        }
        await client.query(`DELETE FROM "replypath"."pool_numbers" WHERE "number" = $1`, [number]);
      });
    },
  };
}

export type PoolStore = ReturnType<typeof createPoolStore>;
