import type { SecretBox } from '@msg/auth';
import type { RcsTrafficType } from '@msg/contracts';
import { withTransaction } from '@msg/db';
import { ConflictError, NotFoundError, ValidationError } from '@msg/http';
import type pg from 'pg';
import { RCS_SCHEMA } from '../schema.js';

/** What kind of RBM agent it is; only business messaging is built (conversational: 501). */
export const AGENT_KINDS = ['business_messaging', 'conversational'] as const;
export type AgentKind = (typeof AGENT_KINDS)[number];

/** An agent as the operator API shows it: credentials are never read back out. */
export interface Agent {
  agent_id: string;
  display_name: string;
  use_case: RcsTrafficType;
  kind: AgentKind;
  launched: boolean;
  has_credentials: boolean;
  accounts: string[];
  created_at: string;
  updated_at: string;
}

export interface AgentInput {
  display_name?: string;
  use_case?: RcsTrafficType;
  kind?: AgentKind;
  launched?: boolean;
  /** The RBM service-account JSON key; sealed before it is stored. */
  credentials?: Record<string, unknown>;
  accounts?: string[];
}

/** What a send needs of an agent. */
export interface SendingAgent {
  id: string;
  useCase: RcsTrafficType;
  kind: AgentKind;
  launched: boolean;
  /** Whether `accountId` may send as it. */
  allows: boolean;
}

export interface AgentStore {
  list(): Promise<Agent[]>;
  get(agentId: string): Promise<Agent>;
  create(agentId: string, input: AgentInput & { display_name: string }): Promise<Agent>;
  update(agentId: string, input: AgentInput): Promise<Agent>;
  remove(agentId: string): Promise<void>;
  /** Lets `accountId` send as the agent (already allowed: nothing changes); 404 without agent. */
  allow(agentId: string, accountId: string): Promise<Agent>;
  /** `accountId` may no longer send as the agent; `removed` says whether it could. */
  deny(agentId: string, accountId: string): Promise<{ agent: Agent; removed: boolean }>;
  /** The agent as `accountId` would send as it; null when no such agent exists. */
  forSending(agentId: string, accountId: string): Promise<SendingAgent | null>;
  /** The agent's RBM service-account key, opened (the delivery worker's). */
  credentials(agentId: string): Promise<Record<string, unknown> | null>;
}

const AGENTS = `"${RCS_SCHEMA}"."agents"`;
const AGENT_ACCOUNTS = `"${RCS_SCHEMA}"."agent_accounts"`;

const SELECT_AGENTS = `
  SELECT a."id", a."display_name", a."use_case", a."kind", a."launched",
         a."credentials" IS NOT NULL AS "has_credentials", a."created_at", a."updated_at",
         coalesce(array_agg(aa."account_id" ORDER BY aa."account_id")
                  FILTER (WHERE aa."account_id" IS NOT NULL), '{}') AS "accounts"
    FROM ${AGENTS} a LEFT JOIN ${AGENT_ACCOUNTS} aa ON aa."agent_id" = a."id"`;

interface AgentRow {
  id: string;
  display_name: string;
  use_case: RcsTrafficType;
  kind: AgentKind;
  launched: boolean;
  has_credentials: boolean;
  accounts: string[];
  created_at: Date;
  updated_at: Date;
}

const agentOf = (row: AgentRow): Agent => ({
  agent_id: row.id,
  display_name: row.display_name,
  use_case: row.use_case,
  kind: row.kind,
  launched: row.launched,
  has_credentials: row.has_credentials,
  accounts: row.accounts,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

/**
 * Agents in Postgres (schema rcs). The rcs service owns them: operators manage them through
 * /internal/v1/agents (or `pnpm rcs agents`), see the README for why not admin.
 * `box` seals credentials (RCS_CREDENTIALS_KEY); without it, credentials are refused.
 */
export function createAgentStore(pool: pg.Pool, box?: SecretBox): AgentStore {
  const seal = (credentials: Record<string, unknown>) => {
    if (!box) {
      throw ValidationError.field(
        ['body', 'credentials'],
        'not_configured',
        'RCS_CREDENTIALS_KEY is not set: credentials cannot be stored encrypted',
      );
    }
    return box.seal(JSON.stringify(credentials));
  };

  async function get(agentId: string): Promise<Agent> {
    const { rows } = await pool.query<AgentRow>(
      `${SELECT_AGENTS} WHERE a."id" = $1 GROUP BY a."id"`,
      [agentId],
    );
    if (!rows[0]) throw new NotFoundError(`No agent ${agentId}`);
    return agentOf(rows[0]);
  }

  /** Locks the agent's row for a change of its accounts; 404 when there is no such agent. */
  async function touch(client: pg.PoolClient, agentId: string) {
    const updated = await client.query(
      `UPDATE ${AGENTS} SET "updated_at" = now() WHERE "id" = $1`,
      [agentId],
    );
    if (updated.rowCount === 0) throw new NotFoundError(`No agent ${agentId}`);
  }

  async function setAccounts(client: pg.PoolClient, agentId: string, accounts: string[]) {
    await client.query(`DELETE FROM ${AGENT_ACCOUNTS} WHERE "agent_id" = $1`, [agentId]);
    await client.query(
      `INSERT INTO ${AGENT_ACCOUNTS} ("agent_id", "account_id")
         SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING`,
      [agentId, accounts],
    );
  }

  return {
    async list() {
      const { rows } = await pool.query<AgentRow>(
        `${SELECT_AGENTS} GROUP BY a."id" ORDER BY a."id"`,
      );
      return rows.map(agentOf);
    },

    get,

    async create(agentId, input) {
      const sealed = input.credentials ? seal(input.credentials) : null;
      await withTransaction(pool, async (client) => {
        const inserted = await client.query(
          `INSERT INTO ${AGENTS} ("id", "display_name", "credentials", "use_case", "launched", "kind")
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT ("id") DO NOTHING`,
          [
            agentId,
            input.display_name,
            sealed,
            input.use_case ?? 'TRANSACTION',
            input.launched ?? false,
            input.kind ?? 'business_messaging',
          ],
        );
        if (inserted.rowCount === 0) throw new ConflictError(`Agent ${agentId} already exists`);
        await setAccounts(client, agentId, input.accounts ?? []);
      });
      return get(agentId);
    },

    async update(agentId, input) {
      const sealed = input.credentials ? seal(input.credentials) : null;
      await withTransaction(pool, async (client) => {
        const updated = await client.query(
          `UPDATE ${AGENTS} SET
              "display_name" = coalesce($2, "display_name"),
              "credentials" = coalesce($3, "credentials"),
              "use_case" = coalesce($4, "use_case"),
              "launched" = coalesce($5, "launched"),
              "kind" = coalesce($6, "kind"),
              "updated_at" = now()
            WHERE "id" = $1`,
          [
            agentId,
            input.display_name ?? null,
            sealed,
            input.use_case ?? null,
            input.launched ?? null,
            input.kind ?? null,
          ],
        );
        if (updated.rowCount === 0) throw new NotFoundError(`No agent ${agentId}`);
        if (input.accounts) await setAccounts(client, agentId, input.accounts);
      });
      return get(agentId);
    },

    async allow(agentId, accountId) {
      await withTransaction(pool, async (client) => {
        await touch(client, agentId);
        await client.query(
          `INSERT INTO ${AGENT_ACCOUNTS} ("agent_id", "account_id") VALUES ($1, $2)
             ON CONFLICT DO NOTHING`,
          [agentId, accountId],
        );
      });
      return get(agentId);
    },

    async deny(agentId, accountId) {
      const removed = await withTransaction(pool, async (client) => {
        await touch(client, agentId);
        const deleted = await client.query(
          `DELETE FROM ${AGENT_ACCOUNTS} WHERE "agent_id" = $1 AND "account_id" = $2`,
          [agentId, accountId],
        );
        return (deleted.rowCount ?? 0) > 0;
      });
      return { agent: await get(agentId), removed };
    },

    async remove(agentId) {
      const removed = await pool.query(`DELETE FROM ${AGENTS} WHERE "id" = $1`, [agentId]);
      if (removed.rowCount === 0) throw new NotFoundError(`No agent ${agentId}`);
    },

    async forSending(agentId, accountId) {
      const { rows } = await pool.query<{
        id: string;
        use_case: RcsTrafficType;
        kind: AgentKind;
        launched: boolean;
        allows: boolean;
      }>(
        `SELECT a."id", a."use_case", a."kind", a."launched",
                EXISTS (SELECT 1 FROM ${AGENT_ACCOUNTS} aa
                         WHERE aa."agent_id" = a."id" AND aa."account_id" = $2) AS "allows"
           FROM ${AGENTS} a WHERE a."id" = $1`,
        [agentId, accountId],
      );
      const row = rows[0];
      return row
        ? {
            id: row.id,
            useCase: row.use_case,
            kind: row.kind,
            launched: row.launched,
            allows: row.allows,
          }
        : null;
    },

    async credentials(agentId) {
      const { rows } = await pool.query<{ credentials: string | null }>(
        `SELECT "credentials" FROM ${AGENTS} WHERE "id" = $1`,
        [agentId],
      );
      const sealed = rows[0]?.credentials;
      if (!sealed || !box) return null;
      return JSON.parse(box.open(sealed)) as Record<string, unknown>;
    },
  };
}
