import type { TopicSpec } from '@msg/bus';
import { type ContractTopic, eventContracts, Topics } from '@msg/contracts';

/** One consumer group of a service on one topic. */
export interface Consumer<C> {
  topic: ContractTopic;
  /** The group's id; a function of the settings when a deployment chooses it. */
  group: string | ((config: C) => string);
}

/**
 * The directories the kit follows for a service (ServiceContext.accountDirectory and
 * protectedSenders): each replica reads the whole compacted topic in a group of its own.
 */
export const KitDirectories = {
  accounts: { topic: Topics.accounts, group: 'accounts' },
  protectedSenders: { topic: Topics.protectedSenders, group: 'protected-senders' },
} as const;

export type KitDirectory = keyof typeof KitDirectories;

/** The prefix of a directory's consumer groups: each replica appends `.<random>` to it. */
export function directoryGroup(service: string, directory: KitDirectory): string {
  return `${service}-${KitDirectories[directory].group}`;
}

/**
 * What a service publishes and consumes, in its definition: the kit creates these topics (the
 * directories create their own), the bus it hands the service refuses any other (declaredBus),
 * and the AsyncAPI document lists the service as their producer or consumer.
 */
export interface TopicDeclarations<C> {
  /** Topics the service writes, directly or through its outbox. */
  publishes?: readonly ContractTopic[];
  /** Its own consumers (the kit's directories are in `follows`). */
  consumes?: readonly Consumer<C>[];
  /** The kit's directories it follows; asking the kit for one not listed throws. */
  follows?: readonly KitDirectory[];
}

/** The topics to create before the service starts; compaction is the topic's, from its contract. */
export function declaredTopicSpecs<C>(declarations: TopicDeclarations<C>): TopicSpec[] {
  const topics = new Set([
    ...(declarations.publishes ?? []),
    ...(declarations.consumes ?? []).map((consumer) => consumer.topic),
  ]);
  return [...topics].map((topic) => {
    const contract: { compacted?: boolean } = eventContracts[topic];
    return { topic, ...(contract.compacted && { compacted: true }) };
  });
}

/** The consumer group a declaration names under these settings. */
export function groupOf<C>(consumer: Consumer<C>, config: C): string {
  return typeof consumer.group === 'function' ? consumer.group(config) : consumer.group;
}
