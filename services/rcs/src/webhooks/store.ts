import { randomUUID } from 'node:crypto';
import type { SecretBox } from '@msg/auth';
import { withTransaction } from '@msg/db';
import type pg from 'pg';
import { RCS_SCHEMA } from '../schema.js';
import { newWebhookSecret } from './signing.js';

const TABLE = `"${RCS_SCHEMA}"."webhooks"`;
/** Spec 4.5 rule 4, 8.4. */
export const WEBHOOKS_PER_AGENT = 5;

export interface WebhookRow {
  id: string;
  agent_id: string;
  webhook_url: string;
  description: string | null;
  enabled_events: string[];
  is_enabled: boolean;
  created_at: Date;
  updated_at: Date;
  /** The account that created it (whose callback signing secret signs its deliveries). */
  account_id: string | null;
}

const COLUMNS = `"id", "agent_id", "webhook_url", "description", "enabled_events", "is_enabled",
  "created_at", "updated_at", "account_id"`;

export type CreateOutcome =
  | { kind: 'created'; row: WebhookRow; secret: string }
  | { kind: 'limit' }
  | { kind: 'duplicate' };

export interface WebhookChanges {
  webhook_url?: string;
  description?: string | null;
  enabled_events?: string[];
  is_enabled?: boolean;
}

const UNIQUE_VIOLATION = '23505';

function isDuplicate(error: unknown): boolean {
  return (error as { code?: string }).code === UNIQUE_VIOLATION;
}

/** The webhook configurations of services/rcs; secrets go in and out sealed by `box`. */
export function createWebhookStore(pool: pg.Pool, box: SecretBox) {
  return {
    async list(agentId: string): Promise<WebhookRow[]> {
      const { rows } = await pool.query<WebhookRow>(
        `SELECT ${COLUMNS} FROM ${TABLE} WHERE "agent_id" = $1 ORDER BY "created_at", "id"`,
        [agentId],
      );
      return rows;
    },

    async get(id: string): Promise<WebhookRow | undefined> {
      const { rows } = await pool.query<WebhookRow>(
        `SELECT ${COLUMNS} FROM ${TABLE} WHERE "id" = $1`,
        [id],
      );
      return rows[0];
    },

    /**
     * Counting and inserting under a per-agent lock: two concurrent creates cannot both be the
     * fifth. The unique (agent_id, webhook_url) constraint decides duplicates.
     */
    async create(input: {
      account_id: string;
      agent_id: string;
      webhook_url: string;
      description: string | null;
      enabled_events: string[];
      is_enabled: boolean;
    }): Promise<CreateOutcome> {
      const secret = newWebhookSecret();
      return withTransaction(pool, async (client) => {
        await client.query(`SELECT pg_advisory_xact_lock(hashtext('rcs.webhooks:' || $1))`, [
          input.agent_id,
        ]);
        const { rows: counted } = await client.query<{ n: number }>(
          `SELECT count(*)::int AS "n" FROM ${TABLE} WHERE "agent_id" = $1`,
          [input.agent_id],
        );
        const duplicate = await client.query(
          `SELECT 1 FROM ${TABLE} WHERE "agent_id" = $1 AND "webhook_url" = $2`,
          [input.agent_id, input.webhook_url],
        );
        if ((duplicate.rowCount ?? 0) > 0) return { kind: 'duplicate' as const };
        if ((counted[0]?.n ?? 0) >= WEBHOOKS_PER_AGENT) return { kind: 'limit' as const };
        const { rows } = await client.query<WebhookRow>(
          `INSERT INTO ${TABLE} ("id", "agent_id", "webhook_url", "description", "enabled_events",
             "is_enabled", "secret", "account_id")
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
          [
            randomUUID(),
            input.agent_id,
            input.webhook_url,
            input.description,
            input.enabled_events,
            input.is_enabled,
            box.seal(secret),
            input.account_id,
          ],
        );
        return { kind: 'created' as const, row: rows[0] as WebhookRow, secret };
      });
    },

    /** Undefined when gone; 'duplicate' when the new URL is already the agent's. */
    async update(
      id: string,
      changes: WebhookChanges,
    ): Promise<WebhookRow | 'duplicate' | undefined> {
      const sets: string[] = [];
      const values: unknown[] = [id];
      for (const [column, value] of Object.entries(changes)) {
        if (value === undefined) continue;
        values.push(value);
        sets.push(`"${column}" = $${values.length}`);
      }
      try {
        const { rows } = await pool.query<WebhookRow>(
          `UPDATE ${TABLE} SET ${[...sets, `"updated_at" = now()`].join(', ')}
           WHERE "id" = $1 RETURNING ${COLUMNS}`,
          values,
        );
        return rows[0];
      } catch (error) {
        if (isDuplicate(error)) return 'duplicate';
        throw error;
      }
    },

    /** The new secret, in clear for the answer only; the old one stops signing at once. */
    async regenerate(id: string): Promise<{ secret: string; at: Date } | undefined> {
      const secret = newWebhookSecret();
      const { rows } = await pool.query<{ updated_at: Date }>(
        `UPDATE ${TABLE} SET "secret" = $2, "updated_at" = now() WHERE "id" = $1
         RETURNING "updated_at"`,
        [id, box.seal(secret)],
      );
      const row = rows[0];
      return row && { secret, at: row.updated_at };
    },

    async remove(id: string): Promise<boolean> {
      const result = await pool.query(`DELETE FROM ${TABLE} WHERE "id" = $1`, [id]);
      return (result.rowCount ?? 0) > 0;
    },

    /** The enabled webhooks of an agent with their secrets opened (fan-out, test operation). */
    async enabledWithSecrets(agentId: string) {
      const { rows } = await pool.query<WebhookRow & { secret: string }>(
        `SELECT ${COLUMNS}, "secret" FROM ${TABLE} WHERE "agent_id" = $1 AND "is_enabled"`,
        [agentId],
      );
      return rows.map((row) => ({ ...row, secret: box.open(row.secret) }));
    },

    async secretOf(id: string): Promise<string | undefined> {
      const { rows } = await pool.query<{ secret: string }>(
        `SELECT "secret" FROM ${TABLE} WHERE "id" = $1`,
        [id],
      );
      const sealed = rows[0]?.secret;
      return sealed === undefined ? undefined : box.open(sealed);
    },

    /** Whether the account may send as the agent: who may change the agent's webhooks. */
    async mayManage(agentId: string, accountId: string): Promise<boolean> {
      const result = await pool.query(
        `SELECT 1 FROM "${RCS_SCHEMA}"."agent_accounts" WHERE "agent_id" = $1 AND "account_id" = $2`,
        [agentId, accountId],
      );
      return (result.rowCount ?? 0) > 0;
    },

    async agentExists(agentId: string): Promise<boolean> {
      const result = await pool.query(`SELECT 1 FROM "${RCS_SCHEMA}"."agents" WHERE "id" = $1`, [
        agentId,
      ]);
      return (result.rowCount ?? 0) > 0;
    },
  };
}

export type WebhookStore = ReturnType<typeof createWebhookStore>;
