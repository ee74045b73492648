import type { SecretBox } from '@msg/auth';
import { generateSigningSecret } from '@msg/webhooks';
import type pg from 'pg';
import { NOTIFIER_SCHEMA } from '../callback-store.js';

const TABLE = `"${NOTIFIER_SCHEMA}"."signing_secret"`;

/** An account's signing secret as the API shows it. */
export interface SigningSecretView {
  /** `whsec_...`: the secret that signs now. */
  secret: string;
  createdAt: Date;
  /** Until when the secret it replaced still signs beside it; null when none does. */
  previousExpiresAt: Date | null;
}

interface SecretRow {
  account_id: string;
  secret: string;
  created_at: Date;
  /** Only while its grace period runs. */
  previous_secret: string | null;
  previous_expires_at: Date | null;
}

// An expired previous secret is left in its row (sealed) but never read: the query hides it.
const SELECT = `SELECT "account_id", "secret", "created_at",
    CASE WHEN "previous_expires_at" > now() THEN "previous_secret" END AS "previous_secret",
    CASE WHEN "previous_expires_at" > now() THEN "previous_expires_at" END AS "previous_expires_at"
  FROM ${TABLE}`;

/**
 * The accounts' Standard Webhooks signing secrets, owned by the notifier (which signs with them)
 * and nowhere else: sealed with `box` (AES-256-GCM, CALLBACK_SECRETS_KEY) in its own table, made
 * on an account's first use, never on accounts.v1. Hashing would not do: they sign.
 */
export function createSigningSecretStore({ pool, box }: { pool: pg.Pool; box: SecretBox }) {
  async function load(accountIds: string[]): Promise<Map<string, SecretRow>> {
    const { rows } = await pool.query<SecretRow>(`${SELECT} WHERE "account_id" = ANY($1::text[])`, [
      accountIds,
    ]);
    return new Map(rows.map((row) => [row.account_id, row]));
  }

  /** The rows of `accountIds`, a new secret made for each account that had none. */
  async function rowsOf(accountIds: string[]): Promise<Map<string, SecretRow>> {
    const found = await load(accountIds);
    const missing = accountIds.filter((id) => !found.has(id));
    if (missing.length === 0) return found;
    // Two replicas may make one at once: the first insert wins, both read it back.
    await pool.query(
      `INSERT INTO ${TABLE} ("account_id", "secret")
       SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT ("account_id") DO NOTHING`,
      [missing, missing.map(() => box.seal(generateSigningSecret()))],
    );
    for (const [id, row] of await load(missing)) found.set(id, row);
    return found;
  }

  function view(row: SecretRow): SigningSecretView {
    return {
      secret: box.open(row.secret),
      createdAt: row.created_at,
      previousExpiresAt: row.previous_expires_at,
    };
  }

  return {
    /**
     * The secrets that sign each account's callbacks now: its current one, then the one it
     * replaced while that one's grace period runs. An account whose secrets cannot be opened
     * (sealed under another key, or altered) is left out, not failing the others.
     */
    async signingSecrets(accountIds: string[]): Promise<Map<string, string[]>> {
      const secrets = new Map<string, string[]>();
      for (const [id, row] of await rowsOf([...new Set(accountIds)])) {
        try {
          const sealed = [row.secret, row.previous_secret].filter((v): v is string => v !== null);
          secrets.set(
            id,
            sealed.map((value) => box.open(value)),
          );
        } catch {
          // Left out: the caller holds its callbacks and says so.
        }
      }
      return secrets;
    },

    async current(accountId: string): Promise<SigningSecretView> {
      const row = (await rowsOf([accountId])).get(accountId);
      if (!row) throw new Error('signing secret was neither found nor made');
      return view(row);
    },

    /**
     * A new current secret; the one it replaces signs beside it for `previousValidForMs` (0: not
     * at all), and a secret older than that stops at once: at most two sign.
     */
    async rotate(accountId: string, previousValidForMs: number): Promise<SigningSecretView> {
      const { rows } = await pool.query<SecretRow>(
        `INSERT INTO ${TABLE} AS s ("account_id", "secret") VALUES ($1, $2)
         ON CONFLICT ("account_id") DO UPDATE SET
           "previous_secret" = CASE WHEN $3::bigint > 0 THEN s."secret" END,
           "previous_expires_at" = CASE WHEN $3::bigint > 0 THEN now() + $3::bigint * interval '1 millisecond' END,
           "secret" = EXCLUDED."secret",
           "created_at" = now()
         RETURNING "account_id", "secret", "created_at",
           CASE WHEN "previous_expires_at" > now() THEN "previous_secret" END AS "previous_secret",
           CASE WHEN "previous_expires_at" > now() THEN "previous_expires_at" END AS "previous_expires_at"`,
        [accountId, box.seal(generateSigningSecret()), Math.max(0, Math.round(previousValidForMs))],
      );
      const row = rows[0];
      if (!row) throw new Error('rotation stored nothing');
      return view(row);
    },
  };
}

export type SigningSecretStore = ReturnType<typeof createSigningSecretStore>;
