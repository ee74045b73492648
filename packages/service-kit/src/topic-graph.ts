import {
  type ContractTopic,
  eventContracts,
  isContractTopic,
  type TopicConsumer,
  type TopicGraph,
} from '@msg/contracts';
import { directoryGroup, KitDirectories, type TopicDeclarations } from './topic-declarations.js';

/** What the graph reads of a service definition: its name and declarations, whatever its settings. */
export interface DeclaredService extends TopicDeclarations<never> {
  name: string;
}

export interface PlatformTopics {
  graph: TopicGraph;
  /**
   * What the declarations get wrong: a topic nobody reads (unless read outside the services), a
   * topic nobody writes, a consumer of a topic without a schema (untyped).
   */
  problems: string[];
}

/**
 * Who produces and who consumes each topic with a contract, from the services' declarations:
 * what the AsyncAPI document lists as send and receive operations.
 */
export function topicGraph(services: readonly DeclaredService[]): PlatformTopics {
  const producers = new Map<ContractTopic, string[]>();
  const consumers = new Map<ContractTopic, TopicConsumer[]>();
  const problems: string[] = [];
  const add = <T>(ends: Map<ContractTopic, T[]>, topic: string, end: T, service: string) => {
    // The types allow only contract topics; a definition built around them is caught here.
    if (!isContractTopic(topic)) {
      problems.push(`${service} uses ${topic}, which has no schema: its consumers are untyped`);
      return;
    }
    ends.set(topic, [...(ends.get(topic) ?? []), end]);
  };
  for (const service of services) {
    const { name } = service;
    for (const topic of service.publishes ?? []) add(producers, topic, name, name);
    for (const { topic, group } of service.consumes ?? []) {
      const described = typeof group === 'string' ? group : 'chosen by its settings';
      add(consumers, topic, { service: name, group: described }, name);
    }
    for (const directory of service.follows ?? []) {
      const group = `${directoryGroup(name, directory)}.<random>, one per replica (its ${directory} directory)`;
      add(consumers, KitDirectories[directory].topic, { service: name, group }, name);
    }
  }
  const graph: TopicGraph = new Map(
    (Object.keys(eventContracts) as ContractTopic[]).map((topic) => {
      const ends = { producers: producers.get(topic) ?? [], consumers: consumers.get(topic) ?? [] };
      if (ends.producers.length === 0) problems.push(`${topic} has no producer`);
      if (ends.consumers.length === 0 && !eventContracts[topic].readOutside) {
        problems.push(`${topic} has no consumer`);
      }
      return [topic, ends];
    }),
  );
  return { graph, problems };
}
