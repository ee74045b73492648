import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/**
 * The migrations folder (Prisma format) that creates `idempotency_key` in a service's schema:
 * a service lists it in its definition's `database.migrations` (@msg/service-kit), before its own.
 */
export const IDEMPOTENCY_MIGRATIONS_DIR = fileURLToPath(
  new URL('../../migrations', import.meta.url),
);

/** One key: the account (or other caller) it belongs to, the operation and the key itself. */
export interface IdempotencyKeyId {
  scope: string;
  method: string;
  path: string;
  key: string;
}

/** What is replayed: the first answer, as it was sent. */
export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** The request a key was first used with: sha256 of its body bytes and their number. */
export interface RequestFingerprint {
  fingerprint: string;
  bodyBytes: number;
}

export type ClaimResult =
  /** The key is ours: run the operation, then complete or release with this token. */
  | { state: 'claimed'; token: string }
  /** Another request with this key has not answered yet. */
  | { state: 'inFlight' }
  /** Answered before (within the retention): replay it if the request is the same. */
  | { state: 'completed'; request: RequestFingerprint; answer: StoredAnswer };

export interface IdempotencyStore {
  /**
   * Takes the key for a new request, or says who has it. `request` is known before the operation
   * runs for parsed bodies, and only afterwards for streamed ones (then null).
   */
  claim(id: IdempotencyKeyId, request: RequestFingerprint | null): Promise<ClaimResult>;
  /** Stores the answer under the key (only while `token` still holds it). */
  complete(
    id: IdempotencyKeyId,
    token: string,
    request: RequestFingerprint,
    answer: StoredAnswer,
  ): Promise<void>;
  /** Lets go of the key without an answer: the client may retry with it. */
  release(id: IdempotencyKeyId, token: string): Promise<void>;
}

export interface PostgresIdempotencyStoreOptions {
  pool: pg.Pool;
  /** The service's schema, where IDEMPOTENCY_MIGRATIONS_DIR was applied. */
  schema: string;
  /** How long an answer is replayed. Default 24 h. */
  retentionMs?: number;
  /**
   * How long an unanswered claim is honoured (409 to others) before another request may take
   * the key over: the first holder's process may have died. Default 60 s.
   */
  leaseMs?: number;
  /** Expired keys are deleted (at most `purgeBatch` at a time) at most this often. Default 60 s. */
  purgeEveryMs?: number;
  purgeBatch?: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

interface KeyRow {
  claim: string;
  fingerprint: string | null;
  body_bytes: string | null;
  status: number | null;
  headers: Record<string, string> | null;
  body: Buffer | null;
}

/**
 * Idempotency keys in Postgres, so every replica sees the same keys. Each call is one statement
 * on the pool, outside any transaction of the operation.
 */
export function createPostgresIdempotencyStore({
  pool,
  schema,
  retentionMs = DAY_MS,
  leaseMs = 60_000,
  purgeEveryMs = 60_000,
  purgeBatch = 1000,
}: PostgresIdempotencyStoreOptions): IdempotencyStore & { purgeExpired(): Promise<number> } {
  const table = `${pg.escapeIdentifier(schema)}.idempotency_key`;
  const where = 'scope = $1 AND method = $2 AND path = $3 AND key = $4';
  const keyParams = (id: IdempotencyKeyId) => [id.scope, id.method, id.path, id.key];
  let lastPurge = 0;

  async function purgeExpired(): Promise<number> {
    lastPurge = Date.now();
    const { rowCount } = await pool.query(
      `DELETE FROM ${table} WHERE ctid IN (
         SELECT ctid FROM ${table}
          WHERE created_at < now() - $1 * interval '1 millisecond'
          ORDER BY created_at LIMIT $2)`,
      [retentionMs, purgeBatch],
    );
    return rowCount ?? 0;
  }

  async function tryClaim(
    id: IdempotencyKeyId,
    request: RequestFingerprint | null,
  ): Promise<ClaimResult | undefined> {
    const token = randomUUID();
    // New key, or one whose answer expired, or one whose holder's lease ran out: take it.
    const taken = await pool.query(
      `INSERT INTO ${table} (scope, method, path, key, claim, fingerprint, body_bytes, locked_until)
       VALUES ($1, $2, $3, $4, $5, $6, $7, now() + $8 * interval '1 millisecond')
       ON CONFLICT (scope, method, path, key) DO UPDATE
          SET claim = EXCLUDED.claim, fingerprint = EXCLUDED.fingerprint,
              body_bytes = EXCLUDED.body_bytes, locked_until = EXCLUDED.locked_until,
              created_at = CURRENT_TIMESTAMP, status = NULL, headers = NULL, body = NULL
        WHERE ${table}.created_at < now() - $9 * interval '1 millisecond'
           OR (${table}.status IS NULL AND ${table}.locked_until < now())
       RETURNING claim`,
      [
        ...keyParams(id),
        token,
        request?.fingerprint ?? null,
        request?.bodyBytes ?? null,
        leaseMs,
        retentionMs,
      ],
    );
    if (taken.rowCount === 1) return { state: 'claimed', token };
    const { rows } = await pool.query<KeyRow>(
      `SELECT claim, fingerprint, body_bytes, status, headers, body FROM ${table} WHERE ${where}`,
      keyParams(id),
    );
    const row = rows[0];
    if (!row) return undefined; // released meanwhile: try again
    if (row.status === null || row.fingerprint === null) return { state: 'inFlight' };
    return {
      state: 'completed',
      request: { fingerprint: row.fingerprint, bodyBytes: Number(row.body_bytes ?? 0) },
      answer: { status: row.status, headers: row.headers ?? {}, body: row.body ?? Buffer.alloc(0) },
    };
  }

  return {
    purgeExpired,

    async claim(id, request) {
      if (Date.now() - lastPurge >= purgeEveryMs) await purgeExpired();
      for (let attempt = 0; attempt < 3; attempt++) {
        const result = await tryClaim(id, request);
        if (result) return result;
      }
      // Claimed and released three times over while we looked: as good as in flight.
      return { state: 'inFlight' };
    },

    async complete(id, token, request, answer) {
      await pool.query(
        `UPDATE ${table}
            SET fingerprint = $6, body_bytes = $7, status = $8, headers = $9, body = $10
          WHERE ${where} AND claim = $5`,
        [
          ...keyParams(id),
          token,
          request.fingerprint,
          request.bodyBytes,
          answer.status,
          JSON.stringify(answer.headers),
          answer.body,
        ],
      );
    },

    async release(id, token) {
      await pool.query(`DELETE FROM ${table} WHERE ${where} AND claim = $5`, [
        ...keyParams(id),
        token,
      ]);
    },
  };
}
