import type { Logger } from '@msg/logger';
import type { LogEntry, logLevel } from 'kafkajs';

/**
 * Sent on purpose: we bound the idempotent producer's retries so that a publish fails (and the
 * outbox relay tries again later) instead of hanging while the broker is away. Duplicates this
 * may cause are harmless because consumers dedupe on the event id.
 */
const EXPECTED_WARNINGS = [/Limiting retries for the idempotent producer/];

/**
 * kafkajs logs through our winston logger. Its ERROR lines are mostly connection trouble it
 * retries by itself, so they arrive as warnings; our own code logs the failures that matter.
 */
export function kafkaLogCreator(logger: Logger) {
  const kafkaLogger = logger.child({ component: 'kafkajs' });
  return (_level: logLevel) =>
    ({ namespace, log }: LogEntry) => {
      const { message, timestamp: _timestamp, logger: _name, ...fields } = log;
      const quiet = EXPECTED_WARNINGS.some((pattern) => pattern.test(message));
      kafkaLogger.log(quiet ? 'debug' : 'warn', message, { namespace, ...fields });
    };
}
