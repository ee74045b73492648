import { makeEvent } from '@msg/contracts';
import { describe, expect, it } from 'vitest';
import { PartitionLog } from './in-process-log.js';
import { partitionForKey } from './partitioning.js';

const event = (n: number) => makeEvent('t', { n });

describe('PartitionLog', () => {
  it('when records are appended, then they are read back by offset', () => {
    const log = new PartitionLog(false);
    log.append('a', event(0), {});
    log.append('b', event(1), {});
    expect(log.readFrom(0)?.key).toBe('a');
    expect(log.readFrom(1)?.key).toBe('b');
    expect(log.readFrom(2)).toBeUndefined();
    expect(log.nextOffset).toBe(2);
  });

  it('when a compacted log gets a newer record for a key, then the older one is skipped', () => {
    const log = new PartitionLog(true);
    log.append('a', event(0), {});
    log.append('b', event(1), {});
    log.append('a', event(2), {});
    expect(log.readFrom(0)?.offset).toBe(1);
    expect(log.readFrom(2)?.offset).toBe(2);
  });

  it('when a plain log is trimmed, then unconsumed and recent records stay', () => {
    const log = new PartitionLog(false);
    for (let n = 0; n < 13_000; n++) log.append('k', event(n), {});
    log.trim(500);
    expect(log.startOffset()).toBe(0);
    log.trim(12_500);
    expect(log.startOffset()).toBe(3_000);
    expect(log.readFrom(0)?.offset).toBe(3_000);
  });
});

describe('partitionForKey', () => {
  it('when the same key is hashed twice, then it lands on the same partition, within range', () => {
    for (const key of ['a', 'account-42', '']) {
      const p = partitionForKey(key, 3);
      expect(p).toBe(partitionForKey(key, 3));
      expect(p).toBeGreaterThanOrEqual(0);
      expect(p).toBeLessThan(3);
    }
  });

  it('when many keys are hashed, then every partition gets some', () => {
    const used = new Set(Array.from({ length: 100 }, (_, i) => partitionForKey(`k${i}`, 3)));
    expect(used).toEqual(new Set([0, 1, 2]));
  });
});
