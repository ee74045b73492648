import { errorMessage } from './handler-retry.js';

/**
 * Headers a dead-lettered message carries besides its own, so an operator can find where it came
 * from, why it failed, and replay it to the origin topic.
 */
export const DeadLetterHeader = {
  originTopic: 'x-dead-letter-origin-topic',
  originPartition: 'x-dead-letter-origin-partition',
  originOffset: 'x-dead-letter-origin-offset',
  groupId: 'x-dead-letter-group-id',
  error: 'x-dead-letter-error',
  attempts: 'x-dead-letter-attempts',
  failedAt: 'x-dead-letter-failed-at',
} as const;

const MAX_ERROR_LENGTH = 1_000;

export interface DeadLetterOrigin {
  topic: string;
  partition: number;
  offset: string;
  groupId: string;
  headers: Record<string, string>;
  error: unknown;
  attempts: number;
}

export function deadLetterHeaders(origin: DeadLetterOrigin): Record<string, string> {
  return {
    ...origin.headers,
    [DeadLetterHeader.originTopic]: origin.topic,
    [DeadLetterHeader.originPartition]: String(origin.partition),
    [DeadLetterHeader.originOffset]: origin.offset,
    [DeadLetterHeader.groupId]: origin.groupId,
    [DeadLetterHeader.error]: errorMessage(origin.error).slice(0, MAX_ERROR_LENGTH),
    [DeadLetterHeader.attempts]: String(origin.attempts),
    [DeadLetterHeader.failedAt]: new Date().toISOString(),
  };
}
