import type { Sql } from '@msg/db';
import type { HlrAnswer, HlrClient, HlrState } from './hlr-client.js';

/** How long each kind of answer is reused (spec 2.7). */
export interface LiveTtls {
  /** reachable, absent: minutes. */
  presentMs: number;
  /** barred: hours. */
  barredMs: number;
  /** unknown_subscriber, not_provisioned: about a day. */
  unknownMs: number;
}

export type LiveLookup =
  | { state: 'unavailable'; attemptedAt: Date }
  | (HlrAnswer & { asOf: Date; validUntil: Date });

export interface LiveStatuses {
  /** A stored answer still valid at `now`, else a fresh query (stored unless unavailable). */
  get(digits: string, now: Date): Promise<LiveLookup>;
}

function ttlOf(state: HlrState, ttls: LiveTtls): number {
  if (state === 'reachable' || state === 'absent') return ttls.presentMs;
  if (state === 'barred') return ttls.barredMs;
  return ttls.unknownMs;
}

type LiveRow = {
  state: HlrState;
  checked_at: Date;
  as_of: Date;
  valid_until: Date;
  imsi: string | null;
  mcc: string | null;
  mnc: string | null;
  network: string | null;
};

function fromRow(row: LiveRow): LiveLookup {
  const found: LiveLookup = {
    state: row.state,
    checkedAt: new Date(row.checked_at),
    asOf: new Date(row.as_of),
    validUntil: new Date(row.valid_until),
  };
  if (row.imsi) found.imsi = row.imsi;
  if (row.mcc) found.mcc = row.mcc;
  if (row.mnc) found.mnc = row.mnc;
  if (row.network) found.network = row.network;
  return found;
}

/**
 * Live network status with the answers kept in Postgres (numbers.live_status, shared by every
 * replica) and reused until their valid_until; as_of and checked_at stay those of the original
 * answer. `unavailable` is never stored, so the next request asks the network again.
 */
export function createLiveStatuses(sql: Sql, hlr: HlrClient, ttls: LiveTtls): LiveStatuses {
  return {
    async get(digits, now) {
      const stored = await sql.query<LiveRow>(
        `SELECT state, checked_at, as_of, valid_until, imsi, mcc, mnc, network
           FROM numbers.live_status WHERE msisdn = $1 AND valid_until > $2`,
        [digits, now],
      );
      const row = stored.rows[0];
      if (row) return fromRow(row);
      const answer = await hlr.query(digits);
      if (answer === 'unavailable') return { state: 'unavailable', attemptedAt: now };
      const validUntil = new Date(now.getTime() + ttlOf(answer.state, ttls));
      await sql.query(
        `INSERT INTO numbers.live_status
           (msisdn, state, checked_at, as_of, valid_until, imsi, mcc, mnc, network)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (msisdn) DO UPDATE SET state = EXCLUDED.state, checked_at = EXCLUDED.checked_at,
           as_of = EXCLUDED.as_of, valid_until = EXCLUDED.valid_until, imsi = EXCLUDED.imsi,
           mcc = EXCLUDED.mcc, mnc = EXCLUDED.mnc, network = EXCLUDED.network`,
        [
          digits,
          answer.state,
          answer.checkedAt,
          now,
          validUntil,
          answer.imsi ?? null,
          answer.mcc ?? null,
          answer.mnc ?? null,
          answer.network ?? null,
        ],
      );
      return { ...answer, asOf: now, validUntil };
    },
  };
}
