import type pg from 'pg';
import { RCS_SCHEMA } from '../schema.js';

/** An account's RCS settings as the operator API shows them. */
export interface AccountSettings {
  account_id: string;
  /** Whether the account's sends may carry `sms_fallback` (beyond the specification; off by default). */
  sms_fallback: boolean;
  /** Last change; null for an account never set (the defaults). */
  updated_at: string | null;
}

const TABLE = `"${RCS_SCHEMA}"."account_settings"`;

interface Row {
  account_id: string;
  sms_fallback: boolean;
  updated_at: Date;
}

const settingsOf = (row: Row): AccountSettings => ({
  account_id: row.account_id,
  sms_fallback: row.sms_fallback,
  updated_at: row.updated_at.toISOString(),
});

/** The operator's per-account settings (table rcs.account_settings); absent row = defaults. */
export function createAccountSettingsStore(pool: pg.Pool) {
  return {
    async list(): Promise<AccountSettings[]> {
      const { rows } = await pool.query<Row>(`SELECT * FROM ${TABLE} ORDER BY "account_id"`);
      return rows.map(settingsOf);
    },
    async get(accountId: string): Promise<AccountSettings> {
      const { rows } = await pool.query<Row>(`SELECT * FROM ${TABLE} WHERE "account_id" = $1`, [
        accountId,
      ]);
      const row = rows[0];
      return row
        ? settingsOf(row)
        : { account_id: accountId, sms_fallback: false, updated_at: null };
    },
    async update(accountId: string, change: { sms_fallback: boolean }): Promise<AccountSettings> {
      const { rows } = await pool.query<Row>(
        `INSERT INTO ${TABLE} ("account_id", "sms_fallback", "updated_at") VALUES ($1, $2, now())
         ON CONFLICT ("account_id") DO UPDATE
           SET "sms_fallback" = EXCLUDED."sms_fallback", "updated_at" = now()
         RETURNING *`,
        [accountId, change.sms_fallback],
      );
      return settingsOf(rows[0] as Row);
    },
    /** The intake's question: one primary-key read, only for sends that carry a fallback. */
    async smsFallbackEnabled(accountId: string): Promise<boolean> {
      const { rows } = await pool.query<{ sms_fallback: boolean }>(
        `SELECT "sms_fallback" FROM ${TABLE} WHERE "account_id" = $1`,
        [accountId],
      );
      return rows[0]?.sms_fallback === true;
    },
  };
}

export type AccountSettingsStore = ReturnType<typeof createAccountSettingsStore>;
