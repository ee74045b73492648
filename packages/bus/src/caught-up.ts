/**
 * Tracks whether a subscription has handled everything that was in its partitions when it
 * subscribed: a target end offset per partition, and the next offset the group will read.
 * Offsets are bigint because Kafka's are 64-bit.
 */
export interface CaughtUpTracker {
  /** The group's next offset for the partition is now at least `nextOffset`. */
  advance(topic: string, partition: number, nextOffset: bigint): void;
  isCaughtUp(): boolean;
  /** Partitions not yet caught up, for polling the group's committed offsets. */
  pending(): { topic: string; partition: number }[];
  promise(): Promise<void>;
  /** Rejects waiters: the subscription stopped before it caught up. */
  abandon(reason: Error): void;
}

export interface PartitionTarget {
  topic: string;
  partition: number;
  /** The end offset (high watermark) at subscribe time. */
  end: bigint;
  /** Where the group starts reading this partition. */
  start: bigint;
}

const partitionKey = (topic: string, partition: number) => `${topic}\u0000${partition}`;

export function createCaughtUpTracker(targets: PartitionTarget[]): CaughtUpTracker {
  const remaining = new Map<string, { topic: string; partition: number; end: bigint }>();
  for (const t of targets) {
    if (t.start < t.end) remaining.set(partitionKey(t.topic, t.partition), t);
  }
  let settle: { resolve: () => void; reject: (e: Error) => void } | undefined;
  const done = new Promise<void>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // Nobody may ever ask; an abandoned tracker must not become an unhandled rejection.
  done.catch(() => {});
  if (remaining.size === 0) settle?.resolve();

  return {
    advance(topic, partition, nextOffset) {
      const key = partitionKey(topic, partition);
      const target = remaining.get(key);
      if (target && nextOffset >= target.end) {
        remaining.delete(key);
        if (remaining.size === 0) settle?.resolve();
      }
    },
    isCaughtUp: () => remaining.size === 0,
    pending: () => [...remaining.values()].map(({ topic, partition }) => ({ topic, partition })),
    promise: () => done,
    abandon(reason) {
      if (remaining.size > 0) settle?.reject(reason);
    },
  };
}
