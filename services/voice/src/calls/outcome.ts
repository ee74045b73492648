import type { FinalOutcome } from '../messages/final-outcome.js';
import type { CallOutcome } from './ports.js';

/** Spec 3.4 / 8.5: the first call and 2 reattempts. */
export const MAX_ATTEMPTS = 3;

/**
 * What ended an attempt: the call's outcome, or translation (spec 4.6) or the speech engine
 * failing before any call.
 */
export type AttemptResult =
  | CallOutcome
  | { kind: 'translation_failed'; message: string }
  | { kind: 'synthesis_failed'; message: string };

export type NextStep = { kind: 'reattempt' } | ({ kind: 'final' } & FinalOutcome);

const failed = (failureCode: 1 | 5): NextStep => ({
  kind: 'final',
  status: 'failed',
  failureCode,
  durationSeconds: null,
  listenedSeconds: 0,
});

/**
 * Spec 3.4's transitions after attempt `attempt` (1-based): answered → completed; busy or not
 * answered → another attempt while reattempts remain, else failed 1; rejected (603 and other
 * final refusals) → failed 1 at once; our error or a translation or synthesis failure → failed 5 at once.
 */
export function nextStep(result: AttemptResult, attempt: number): NextStep {
  switch (result.kind) {
    case 'answered':
      return {
        kind: 'final',
        status: 'completed',
        failureCode: null,
        durationSeconds: Math.max(0, Math.round(result.durationSeconds)),
        listenedSeconds: Math.max(0, Math.round(result.listenedSeconds)),
      };
    case 'busy':
    case 'no_answer':
      return attempt < MAX_ATTEMPTS ? { kind: 'reattempt' } : failed(1);
    case 'rejected':
      return failed(1);
    case 'error':
    case 'translation_failed':
    case 'synthesis_failed':
      return failed(5);
  }
}

/** The SIP status an outcome stands for, when one is known (stored with the attempt). */
export function sipStatusOf(result: AttemptResult): number | null {
  if (result.kind === 'rejected') return result.status;
  if (result.kind === 'busy') return 486;
  if (result.kind === 'answered') return 200;
  return null;
}
