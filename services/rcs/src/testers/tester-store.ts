import type pg from 'pg';
import { RCS_SCHEMA } from '../schema.js';

const TESTERS = `"${RCS_SCHEMA}"."testers"`;

/** A tester as the API shows it (spec 2.5). */
export interface Tester {
  agent_id: string;
  phone_number: string;
  label: string | null;
  invite_status: string;
  name: string;
}

const COLUMNS = `"agent_id", "phone_number", "label", "invite_status", "name"`;

/** The testers of agents (rcs.testers); RBM's answers are written through `saveInvite`. */
export function createTesterStore(pool: pg.Pool) {
  return {
    async list(agentId: string): Promise<Tester[]> {
      const { rows } = await pool.query<Tester>(
        `SELECT ${COLUMNS} FROM ${TESTERS} WHERE "agent_id" = $1 ORDER BY "created_at", "phone_number"`,
        [agentId],
      );
      return rows;
    },

    async get(agentId: string, phone: string): Promise<Tester | undefined> {
      const { rows } = await pool.query<Tester>(
        `SELECT ${COLUMNS} FROM ${TESTERS} WHERE "agent_id" = $1 AND "phone_number" = $2`,
        [agentId, phone],
      );
      return rows[0];
    },

    /**
     * Stores what RBM answered an invite: a new tester, or the current status of a known one.
     * `label` undefined keeps the stored label. `created` says which it was.
     */
    async saveInvite(
      agentId: string,
      phone: string,
      invite: { inviteStatus: string; name: string },
      label?: string | null,
    ): Promise<{ tester: Tester; created: boolean }> {
      const { rows } = await pool.query<Tester & { created: boolean }>(
        `INSERT INTO ${TESTERS} ("agent_id", "phone_number", "label", "invite_status", "name")
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT ("agent_id", "phone_number") DO UPDATE
           SET "invite_status" = EXCLUDED."invite_status", "name" = EXCLUDED."name",
               "label" = CASE WHEN $6 THEN EXCLUDED."label" ELSE ${TESTERS}."label" END,
               "updated_at" = now()
         RETURNING ${COLUMNS}, (xmax = 0) AS "created"`,
        [agentId, phone, label ?? null, invite.inviteStatus, invite.name, label !== undefined],
      );
      const { created, ...tester } = rows[0] as Tester & { created: boolean };
      return { tester, created };
    },

    async setLabel(agentId: string, phone: string, label: string | null) {
      const { rows } = await pool.query<Tester>(
        `UPDATE ${TESTERS} SET "label" = $3, "updated_at" = now()
          WHERE "agent_id" = $1 AND "phone_number" = $2 RETURNING ${COLUMNS}`,
        [agentId, phone, label],
      );
      return rows[0];
    },

    async remove(agentId: string, phone: string): Promise<boolean> {
      const { rowCount } = await pool.query(
        `DELETE FROM ${TESTERS} WHERE "agent_id" = $1 AND "phone_number" = $2`,
        [agentId, phone],
      );
      return (rowCount ?? 0) > 0;
    },
  };
}

export type TesterStore = ReturnType<typeof createTesterStore>;
