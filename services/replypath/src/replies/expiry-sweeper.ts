import { setTimeout as sleep } from 'node:timers/promises';
import { withTransaction } from '@msg/db';
import type { Logger } from '@msg/logger';
import type pg from 'pg';
import { deleteFinishedReservations } from '../pool/reservation-store.js';
import { expireDueMessages } from './reservation-end.js';

/** Message records removed per transaction; a sweep repeats until fewer are due. */
export const SWEEP_BATCH = 500;

export interface ExpirySweeperOptions {
  pool: pg.Pool;
  /** Pause between sweeps (REPLYPATH_SWEEP_INTERVAL). */
  intervalMs: number;
  /** The service's clock (injected in tests). */
  now(): Date;
  logger: Logger;
}

/**
 * Ends the reservations whose validity period elapsed (3.2 "VP elapses": expired, records
 * removed, replies no longer forwarded). Runs on every replica: each sweep claims its rows with
 * FOR UPDATE SKIP LOCKED, so replicas share the work and never wait on each other, and a reply
 * being stored holds its reservation's lock, so it is either stored before the expiry or finds
 * the reservation ended.
 */
export function createExpirySweeper({ pool, intervalMs, now, logger }: ExpirySweeperOptions) {
  const log = logger.child({ component: 'replypath-expiry' });

  /** One sweep: every due reservation ended; answers how many. */
  async function sweep(): Promise<number> {
    let total = 0;
    for (;;) {
      const ended = await withTransaction(pool, (sql) =>
        expireDueMessages(sql, { now: now(), limit: SWEEP_BATCH }),
      );
      total += ended;
      if (ended < SWEEP_BATCH) break;
    }
    // Quarantines that are over free their pairs (rp-core's store, the sweeper's part).
    await deleteFinishedReservations(pool, now());
    return total;
  }

  const stop = new AbortController();
  let running: Promise<void> | undefined;

  async function loop(): Promise<void> {
    while (!stop.signal.aborted) {
      try {
        const ended = await sweep();
        if (ended > 0) log.info('reservations expired', { count: ended });
      } catch (error) {
        log.warn('expiry sweep failed; retried next interval', { error: String(error) });
      }
      await sleep(intervalMs, undefined, { signal: stop.signal }).catch(() => {});
    }
  }

  return {
    sweep,
    start(): { stop(): Promise<void> } {
      running ??= loop();
      return {
        stop: async () => {
          stop.abort();
          await running;
        },
      };
    },
  };
}
