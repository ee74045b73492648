import type { Logger } from '@msg/logger';
import type { Stop } from './service-definition.js';

export interface ShutdownStack {
  push(name: string, stop: Stop): void;
  /** Runs every step, last pushed first; a failing step is logged and the rest still run. */
  unwind(): Promise<void>;
}

/**
 * Things started later depend on things started earlier (a consumer on the directory, the
 * directory on the bus), so they stop in reverse order of starting.
 */
export function createShutdownStack(logger: Logger): ShutdownStack {
  const steps: { name: string; stop: Stop }[] = [];
  return {
    push(name, stop) {
      steps.push({ name, stop });
    },
    async unwind() {
      const failures: unknown[] = [];
      for (let step = steps.pop(); step; step = steps.pop()) {
        try {
          await step.stop();
        } catch (error) {
          failures.push(error);
          logger.error('stop failed', { step: step.name, error });
        }
      }
      if (failures.length > 0) throw new AggregateError(failures, 'some parts failed to stop');
    },
  };
}
