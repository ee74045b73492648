import { isContractTopic, Topics } from '@msg/contracts';
import { describe, expect, it } from 'vitest';
import { type DeclaredService, topicGraph } from './topic-graph.js';

/** Every topic with a contract written and read once, by a service `all`. */
const contractTopics = Object.values(Topics).filter(isContractTopic);
const everyTopic: DeclaredService = {
  name: 'all',
  publishes: contractTopics,
  consumes: contractTopics.map((topic) => ({ topic, group: `all-${topic}` })),
};

describe('topicGraph', () => {
  it('when services declare producers, consumers and directories, then each topic lists them with their groups', () => {
    const { graph } = topicGraph([
      { name: 'sender', publishes: [Topics.smsOutbound] },
      {
        name: 'connector',
        consumes: [{ topic: Topics.smsOutbound, group: () => 'set' }],
        follows: ['accounts'],
      },
    ]);
    expect(graph.get(Topics.smsOutbound)).toEqual({
      producers: ['sender'],
      consumers: [{ service: 'connector', group: 'chosen by its settings' }],
    });
    expect(graph.get(Topics.accounts)?.consumers).toEqual([
      {
        service: 'connector',
        group: 'connector-accounts.<random>, one per replica (its accounts directory)',
      },
    ]);
  });

  it('when every topic is written and read, then there is no problem', () => {
    expect(topicGraph([everyTopic]).problems).toEqual([]);
  });

  it('when a topic has no consumer or no producer, then each is a problem; one read outside the services needs none', () => {
    const { problems } = topicGraph([
      { ...everyTopic, consumes: everyTopic.consumes?.filter((c) => c.topic !== Topics.smsStatus) },
      { name: 'nobody-writes', consumes: [] },
    ]);
    expect(problems).toEqual(['sms.status.v1 has no consumer']);
    const unwritten = topicGraph([
      { ...everyTopic, publishes: everyTopic.publishes?.filter((t) => t !== Topics.callbacksDlq) },
    ]);
    expect(unwritten.problems).toEqual(['callbacks.dlq.v1 has no producer']);
  });

  it('when a consumer reads a topic without a schema, then it is reported as untyped', () => {
    // What the types refuse, as a definition built around them (or from JavaScript) could say.
    const untyped = JSON.parse(`{"topic": "${Topics.deadLetter}", "group": "g"}`);
    const { problems } = topicGraph([
      { ...everyTopic, consumes: [...(everyTopic.consumes ?? []), untyped] },
    ]);
    expect(problems).toEqual([
      'all uses deadletter.v1, which has no schema: its consumers are untyped',
    ]);
  });
});
