import { Counter, Gauge, type Registry } from 'prom-client';

/**
 * Consumer health as metrics, not readiness: a service whose consumers wait for Kafka can still
 * take requests into its outbox, so the consumers' state must not take it out of the load
 * balancer. Alert on these instead (a group not joined for minutes, a lag that keeps growing).
 */
export interface KafkaMetrics {
  /** 1 while the consumer of `group` is a member of its group, 0 before it joined, after a crash or a stop. */
  setJoined(group: string, joined: boolean): void;
  /** Messages behind the partition's end after the last batch, as kafkajs reports it. */
  setLag(group: string, topic: string, partition: number, lag: number): void;
  /** One OffsetCommit the group's consumer sent and the broker took. */
  countCommit(group: string): void;
}

export function createKafkaMetrics(registry: Registry, isConnected: () => boolean): KafkaMetrics {
  const joined = new Gauge({
    name: 'bus_consumer_joined',
    help: 'Whether the consumer of a group is a member of it (1) or not (0: joining, crashed, stopped)',
    labelNames: ['group'],
    registers: [registry],
  });
  const lag = new Gauge({
    name: 'bus_consumer_lag',
    help: 'Messages between the last handled offset and the end of the partition',
    labelNames: ['group', 'topic', 'partition'],
    registers: [registry],
  });
  const commits = new Counter({
    name: 'bus_offset_commits_total',
    help: 'Offset commits a consumer group made (at most one a second while it consumes, plus one at each stop or rebalance)',
    labelNames: ['group'],
    registers: [registry],
  });
  new Gauge({
    name: 'bus_connected',
    help: 'Whether the last publish or probe reached the brokers (1) or not (0)',
    registers: [registry],
    collect() {
      this.set(isConnected() ? 1 : 0);
    },
  });
  return {
    setJoined: (group, isJoined) => joined.set({ group }, isJoined ? 1 : 0),
    setLag: (group, topic, partition, messages) =>
      lag.set({ group, topic, partition: String(partition) }, messages),
    countCommit: (group) => commits.inc({ group }),
  };
}

/** For a bus without a registry. */
export const noKafkaMetrics: KafkaMetrics = {
  setJoined: () => {},
  setLag: () => {},
  countCommit: () => {},
};
