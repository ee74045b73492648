import type { AccountLookup } from '@msg/auth';
import type { Logger } from '@msg/logger';
import { TranslationError } from '@msg/translate';
import { reportRequest } from '../reports/delivery-report.js';
import type { AttemptStore, ClaimedAttempt } from './attempt-store.js';
import { type AttemptResult, nextStep, sipStatusOf } from './outcome.js';
import type { SipCaller, SpeechEngine } from './ports.js';
import { type SpeechInputOptions, speechRequestOf } from './speech-input.js';

export interface CallWorkerOptions extends SpeechInputOptions {
  attempts: AttemptStore;
  speech: SpeechEngine;
  sip: SipCaller;
  /** The voice report URL of a finished message's account (accounts.v1). */
  accounts: AccountLookup;
  logger: Logger;
  now: () => Date;
  reattemptIntervalMs: number;
  ringTimeoutMs: number;
  leaseMs: number;
  pollIntervalMs: number;
  concurrency: number;
  reportRetryPeriodMs: number;
}

export interface CallWorker {
  /** Stops claiming and waits for the calls in progress to end and be recorded. */
  stop(): Promise<void>;
}

/**
 * Places the calls of due attempts, at most `concurrency` at once, and records each outcome
 * (src/calls/outcome.ts). Attempts live in the database: a worker that stops or dies loses
 * nothing (an unclaimed attempt waits; a claimed one is retaken when its lease expires), and
 * any number of replicas share the work without calling twice (SKIP LOCKED claims).
 */
export function startCallWorker(options: CallWorkerOptions): CallWorker {
  const { attempts, logger, now } = options;
  const inFlight = new Set<Promise<void>>();
  let running = true;
  let wake: (() => void) | undefined;
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  async function attempt(claimed: ClaimedAttempt): Promise<void> {
    const result = await placeCall(claimed);
    const step = nextStep(result, claimed.number);
    const at = now();
    const account = options.accounts.byId(claimed.accountId);
    const report =
      step.kind === 'final'
        ? reportRequest(
            account?.callbacks.voiceReportUrl,
            claimed,
            step,
            new Date(at.getTime() + options.reportRetryPeriodMs),
          )
        : null;
    const recorded = await attempts.finish({
      attempt: claimed,
      outcome: result.kind,
      sipStatus: sipStatusOf(result),
      step,
      nextDueAt: new Date(at.getTime() + options.reattemptIntervalMs),
      report,
      at,
    });
    logger.info('voice attempt ended', {
      transactionId: claimed.transactionId,
      attempt: claimed.number,
      outcome: result.kind,
      next: step.kind === 'final' ? step.status : 'reattempt',
      ...(!recorded && { lostClaim: true }),
    });
  }

  async function placeCall(claimed: ClaimedAttempt): Promise<AttemptResult> {
    let audio: Buffer;
    try {
      const request = await speechRequestOf(claimed, options);
      audio = (await options.speech.synthesize(request)).mulaw;
    } catch (err) {
      const { transactionId } = claimed;
      if (err instanceof TranslationError) {
        // The failure kind and status only: the provider's answer may quote the text.
        logger.error('voice translation failed', {
          transactionId,
          failure: err.failure,
          status: err.status,
        });
        return { kind: 'translation_failed', message: err.failure };
      }
      logger.error('voice synthesis failed', { transactionId, err });
      return { kind: 'synthesis_failed', message: (err as Error).message };
    }
    try {
      return await options.sip.call({
        from: claimed.callerId,
        to: claimed.recipient,
        audio,
        playCount: claimed.playCount,
        ringTimeoutMs: options.ringTimeoutMs,
        machineDetection: claimed.machineDetection,
      });
    } catch (err) {
      return { kind: 'error', message: (err as Error).message };
    }
  }

  function track(claimed: ClaimedAttempt) {
    const work = attempt(claimed)
      .catch((err) => {
        // Not recorded: the lease expires and the attempt is tried again.
        logger.error('voice attempt not recorded', { transactionId: claimed.transactionId, err });
      })
      .finally(() => {
        inFlight.delete(work);
        wake?.();
      });
    inFlight.add(work);
  }

  const loop = (async () => {
    while (running) {
      const free = options.concurrency - inFlight.size;
      let claimed: ClaimedAttempt[] = [];
      if (free > 0) {
        try {
          claimed = await attempts.claimDue(now(), free, options.leaseMs);
        } catch (err) {
          logger.error('voice claim failed', { err });
        }
      }
      for (const one of claimed) track(one);
      if (claimed.length === 0 && running) await pause(options.pollIntervalMs);
    }
  })();

  return {
    async stop() {
      running = false;
      wake?.();
      await loop;
      await Promise.allSettled([...inFlight]);
    },
  };
}
