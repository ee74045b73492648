import {
  PROTECTED_SENDERS_EVENT,
  type ProtectedSenders,
  protectedSendersSchema,
  Topics,
} from '@msg/contracts';
import type { Logger } from '@msg/logger';
import { NO_PROTECTED_NAMES, type ProtectedNames, protectedNames } from '@msg/sms-text';
import {
  type AccountEventSource,
  type AccountMessage,
  followTopic,
  type TopicFollower,
} from './topic-follower.js';

/**
 * The operator's protected sender names (senders.protected.v1, kept by admin), as every SMS path
 * passes them to `checkSenderPermission` of @msg/sms-text. Ready (readiness
 * 'protected-senders') once the topic has been read, so no request is judged on an empty list
 * that is not really empty.
 */
export interface ProtectedSenderDirectory extends TopicFollower {
  /** The current list, ready for lookups (look-alike keys computed once per change). */
  names(): ProtectedNames;
}

export interface ProtectedSenderDirectoryOptions {
  bus: AccountEventSource;
  logger: Logger;
  /** Prefix of the consumer group; a random suffix makes every replica read the whole topic. */
  groupId: string;
}

/** An in-memory view of senders.protected.v1: the latest list (highest version) wins. */
export function createProtectedSenderDirectory({
  bus,
  logger,
  groupId,
}: ProtectedSenderDirectoryOptions): ProtectedSenderDirectory {
  let current: { list: ProtectedSenders; names: ProtectedNames } | undefined;

  function handle(msg: AccountMessage): void {
    if (msg.value === null || msg.value.type !== PROTECTED_SENDERS_EVENT) return;
    const parsed = protectedSendersSchema.safeParse(msg.value.payload);
    if (!parsed.success) {
      // Retrying cannot fix a malformed payload; the list before it stays in force.
      logger.warn('protected senders ignored: malformed payload', { eventId: msg.value.id });
      return;
    }
    // A redelivered older list must not bring back a name the operator removed, nor drop one added.
    if (current && current.list.version >= parsed.data.version) return;
    current = { list: parsed.data, names: protectedNames(parsed.data.names) };
  }

  const follower = followTopic({
    bus,
    logger,
    topic: Topics.protectedSenders,
    groupId,
    name: 'protected-senders',
    handle,
    summary: () => ({ names: current?.names.size ?? 0 }),
  });

  return { ...follower, names: () => current?.names ?? NO_PROTECTED_NAMES };
}
