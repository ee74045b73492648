import type { Bus } from '@msg/bus';
import { groupOf, type TopicDeclarations } from './topic-declarations.js';

/** A publish, subscribe or directory the service's definition does not declare: no retry fixes it. */
export class UndeclaredTopicError extends Error {
  override name = 'UndeclaredTopicError';
}

/**
 * The bus as the service sees it: a publish to a topic not in `publishes`, or a subscription of a
 * topic and group not in `consumes`, is refused. A declaration the code does not honour so fails
 * the service's own tests instead of leaving the AsyncAPI document wrong.
 */
export function declaredBus<C>(
  bus: Bus,
  service: string,
  declarations: TopicDeclarations<C>,
  config: C,
): Bus {
  const publishes = new Set<string>(declarations.publishes ?? []);
  const consumes = new Set(
    (declarations.consumes ?? []).map(
      (consumer) => `${consumer.topic} ${groupOf(consumer, config)}`,
    ),
  );
  return {
    ensureTopics: (specs) => bus.ensureTopics(specs),
    async publish(topic, messages) {
      if (!publishes.has(topic)) {
        throw new UndeclaredTopicError(
          `${service} publishes to ${topic}, which its service definition does not list in publishes`,
        );
      }
      await bus.publish(topic, messages);
    },
    async subscribe(options) {
      for (const topic of options.topics) {
        if (!consumes.has(`${topic} ${options.groupId}`)) {
          throw new UndeclaredTopicError(
            `${service} subscribes to ${topic} as group ${options.groupId}, which its service definition does not list in consumes`,
          );
        }
      }
      return bus.subscribe(options);
    },
    isReady: () => bus.isReady(),
    close: () => bus.close(),
  };
}
