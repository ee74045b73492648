import type { AccountState } from '@msg/contracts';
import type { Logger } from '@msg/logger';
import { createPrepaidBilling, type PrepaidBilling } from '@msg/sms-submit';
import type pg from 'pg';
import { expandDueChunks } from './expand-next-chunk.js';
import { purgeExpired } from './purge-expired.js';
import { reportDueProgress } from './report-progress.js';
import { startDueBatches } from './start-due-batches.js';
import type { WorkerConfig, WorkerContext } from './worker-context.js';

export interface BatchWorkerDeps {
  pool: pg.Pool;
  logger: Logger;
  accountById(id: string): AccountState | undefined;
  /**
   * Debits prepaid accounts. Absent: no billing API, so prepaid accounts' chunks wait (never sent
   * unpaid) while postpaid ones go as before.
   */
  billing?: PrepaidBilling;
  config: WorkerConfig;
  /**
   * Whether the workers may act (e.g. the account directory has caught up). Until it says so a
   * tick does nothing: an account not read yet would look unknown and fail its batches.
   */
  ready?: () => boolean;
}

export interface BatchWorkers {
  /** Stops the loop; resolves once the running tick (if any) has finished. */
  stop(): Promise<void>;
}

const JOBS = [
  ['start', startDueBatches],
  ['expand', expandDueChunks],
  ['progress', reportDueProgress],
  ['retention', purgeExpired],
] as const;

/**
 * One loop per replica: every BATCH_WORKER_INTERVAL (counted from the end of the previous tick,
 * so ticks never overlap) it starts due batches, expands due chunks, reports progress and purges
 * expired batches. Every step is one transaction that locks its batch row with SKIP LOCKED, so
 * any number of replicas can run this, and a crash at any point loses nothing.
 */
export function startBatchWorkers(deps: BatchWorkerDeps): BatchWorkers {
  const logger = deps.logger.child({ component: 'batch-workers' });
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const ctx: WorkerContext = {
    pool: deps.pool,
    logger,
    accountById: deps.accountById,
    billing:
      deps.billing ?? createPrepaidBilling({ adminUrl: undefined, token: undefined, logger }),
    config: deps.config,
    stopping: () => stopping,
  };

  async function tick(): Promise<void> {
    if (deps.ready && !deps.ready()) return;
    for (const [name, job] of JOBS) {
      if (stopping) return;
      try {
        await job(ctx);
      } catch (err) {
        // The step rolled back; the next tick tries again.
        logger.error('batch job failed', {
          job: name,
          err: err instanceof Error ? err.message : String(err),
        });
      }
    }
  }

  function schedule(): void {
    timer = setTimeout(() => {
      running = tick().finally(() => {
        running = undefined;
        if (!stopping) schedule();
      });
    }, deps.config.BATCH_WORKER_INTERVAL);
  }

  schedule();
  return {
    async stop() {
      stopping = true;
      clearTimeout(timer);
      await running;
    },
  };
}
