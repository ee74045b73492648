import { describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, nextStep } from './outcome.js';

const answered = {
  kind: 'answered',
  answeredBy: 'human',
  durationSeconds: 12.4,
  listenedSeconds: 9.6,
} as const;

describe('nextStep (spec 3.4)', () => {
  it('when answered, then completed with whole seconds', () => {
    expect(nextStep(answered, 2)).toEqual({
      kind: 'final',
      status: 'completed',
      failureCode: null,
      durationSeconds: 12,
      listenedSeconds: 10,
    });
  });

  it.each(['busy', 'no_answer'] as const)(
    'when %s with reattempts left, then reattempt; on the last, failed 1',
    (kind) => {
      expect(nextStep({ kind }, 1)).toEqual({ kind: 'reattempt' });
      expect(nextStep({ kind }, 2)).toEqual({ kind: 'reattempt' });
      expect(nextStep({ kind }, MAX_ATTEMPTS)).toMatchObject({
        kind: 'final',
        status: 'failed',
        failureCode: 1,
      });
    },
  );

  it('when rejected on the first attempt, then failed 1 at once', () => {
    expect(nextStep({ kind: 'rejected', status: 603 }, 1)).toMatchObject({
      status: 'failed',
      failureCode: 1,
    });
  });

  it.each([
    { kind: 'error', message: 'x' },
    { kind: 'translation_failed', message: 'x' },
    { kind: 'synthesis_failed', message: 'x' },
  ] as const)('when $kind on the first attempt, then failed 5 at once', (result) => {
    expect(nextStep(result, 1)).toMatchObject({ status: 'failed', failureCode: 5 });
  });
});
