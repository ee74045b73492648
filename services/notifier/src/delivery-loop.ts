import type { Logger } from '@msg/logger';
import {
  type BackoffOptions,
  backoffDelay,
  type CallbackSender,
  type SendResult,
} from '@msg/webhooks';
import type pg from 'pg';
import {
  type CallbackRow,
  claimDueCallbacks,
  markDelivered,
  recordFailure,
} from './callback-store.js';
import type { AttemptOutcome, NotifierMetrics } from './metrics.js';
import type { TargetLimiter } from './target-limiter.js';

export interface DeliveryLoopOptions {
  pool: pg.Pool;
  sender: CallbackSender;
  limiter: TargetLimiter;
  metrics: NotifierMetrics;
  logger: Logger;
  pollMs: number;
  /** Hides a claimed row from other replicas; longer than one attempt can take. */
  leaseMs: number;
  backoff: Pick<BackoffOptions, 'baseMs' | 'maxMs'>;
  /** The secrets that sign each account's callbacks now (SigningSecretStore.signingSecrets). */
  signingSecrets(accountIds: string[]): Promise<Map<string, string[]>>;
}

const HORIZON_PASSED = 'horizon passed before delivery';
/** Rows looked at per free slot: some belong to targets that are full. */
const CLAIM_LOOKAHEAD = 4;

/**
 * Claims due callbacks while slots are free, delivers each (one attempt), and records the
 * outcome. Woken early when a callback is stored or a slot frees up; otherwise it polls.
 */
export function createDeliveryLoop(options: DeliveryLoopOptions) {
  const { pool, sender, limiter, metrics, logger, pollMs, leaseMs, backoff, signingSecrets } =
    options;
  const log = logger.child({ component: 'delivery-loop' });
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  let running: Promise<void> | undefined;
  let wakeUp: (() => void) | undefined;
  let woken = false;

  function wake(): void {
    woken = true;
    wakeUp?.();
  }

  function pause(): Promise<void> {
    if (woken || stopped) {
      woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, pollMs);
      function done() {
        clearTimeout(timer);
        wakeUp = undefined;
        woken = false;
        resolve();
      }
      wakeUp = done;
    });
  }

  function select(rows: CallbackRow[]): CallbackRow[] {
    return rows.filter((row) => limiter.tryAcquire(row.target));
  }

  async function claim(): Promise<CallbackRow[]> {
    const free = limiter.free();
    if (free <= 0) return [];
    let picked: CallbackRow[] = [];
    try {
      return await claimDueCallbacks(pool, {
        limit: free * CLAIM_LOOKAHEAD,
        skipTargets: limiter.saturated(),
        leaseMs,
        select: (rows) => {
          picked = select(rows);
          return picked;
        },
      });
    } catch (error) {
      // The claim rolled back: give the slots back.
      for (const row of picked) limiter.release(row.target);
      throw error;
    }
  }

  /**
   * The claimed rows with the secrets of their accounts, read once per claim. A row whose account
   * has no usable secret (it cannot be opened: another CALLBACK_SECRETS_KEY, a damaged value) is
   * not sent, never unsigned: its slot goes back and it waits for its lease to end, while the
   * other accounts' rows go out.
   */
  async function withSecrets(rows: CallbackRow[]): Promise<[CallbackRow, string[]][]> {
    if (rows.length === 0) return [];
    let secrets: Map<string, string[]>;
    try {
      secrets = await signingSecrets(rows.map((row) => row.account_id));
    } catch (error) {
      for (const row of rows) limiter.release(row.target);
      throw error;
    }
    const ready: [CallbackRow, string[]][] = [];
    for (const row of rows) {
      const ofAccount = secrets.get(row.account_id);
      if (ofAccount?.length) {
        ready.push([row, ofAccount]);
        continue;
      }
      limiter.release(row.target);
      log.error('callback held: no usable signing secret', {
        callbackId: row.callback_id,
        accountId: row.account_id,
      });
    }
    return ready;
  }

  async function run(): Promise<void> {
    while (!stopped) {
      try {
        for (const [row, secrets] of await withSecrets(await claim())) dispatch(row, secrets);
      } catch (error) {
        log.warn('claiming callbacks or their signing secrets failed', { error: String(error) });
      }
      await pause();
    }
  }

  function dispatch(row: CallbackRow, secrets: string[]): void {
    const work = deliver(row, secrets)
      .catch((error) => {
        // The row keeps its lease and is tried again when it ends.
        log.error('recording a callback attempt failed', {
          callbackId: row.callback_id,
          error: String(error),
        });
      })
      .finally(() => {
        limiter.release(row.target);
        inFlight.delete(work);
        wake();
      });
    inFlight.add(work);
  }

  async function deliver(row: CallbackRow, secrets: string[]): Promise<void> {
    if (row.expired) {
      await recordFailure(pool, row.callback_id, {
        error: HORIZON_PASSED,
        retryInMs: null,
        attemptMade: false,
      });
      log.warn('callback given up', {
        callbackId: row.callback_id,
        origin: `${row.origin.service}/${row.origin.kind}`,
        target: row.target,
        attempts: row.attempts,
        reason: HORIZON_PASSED,
      });
      return;
    }
    const result = await sender.send({
      url: row.url,
      method: row.method,
      ...(row.query && { query: row.query }),
      ...(row.body !== null && { body: row.body }),
      ...(row.body_text !== null && { bodyText: row.body_text }),
      ...(row.headers !== null && { headers: row.headers }),
      // The callback's id is the webhook-id: the same on every retry, for receivers to dedupe.
      signing: { id: row.callback_id, secrets },
    });
    const outcome = await record(row, result);
    metrics.attempt(outcome, result.durationMs);
    // Never the URL path, query values or body: they may carry tokens and message content.
    const fields = {
      callbackId: row.callback_id,
      accountId: row.account_id,
      origin: `${row.origin.service}/${row.origin.kind}`,
      target: row.target,
      attempt: row.attempts + 1,
      status: result.status,
      durationMs: result.durationMs,
      outcome,
      ...(result.error && { error: result.error }),
    };
    if (outcome === 'delivered') log.info('callback attempt', fields);
    else log.warn('callback attempt', fields);
  }

  async function record(row: CallbackRow, result: SendResult): Promise<AttemptOutcome> {
    if (result.ok) {
      await markDelivered(pool, row.callback_id);
      return 'delivered';
    }
    // A refused target or an unusable URL (no status) is never retried.
    const retryable = result.retryable || (row.retry_every_failure && result.status !== undefined);
    const retryInMs = retryable ? backoffDelay(row.attempts + 1, backoff) : null;
    const recorded = await recordFailure(pool, row.callback_id, {
      error: result.error ?? 'failed',
      retryInMs,
      attemptMade: true,
    });
    return recorded?.status === 'pending' ? 'retry' : 'dead';
  }

  return {
    start(): void {
      if (running) return;
      stopped = false;
      running = run();
    },
    /** Wakes the loop now (a callback was stored). */
    wake,
    /** Stops claiming, then waits for the attempts in flight to be recorded. */
    async stop(): Promise<void> {
      stopped = true;
      wakeUp?.();
      await running;
      running = undefined;
      await Promise.allSettled([...inFlight]);
    },
  };
}

export type DeliveryLoop = ReturnType<typeof createDeliveryLoop>;
