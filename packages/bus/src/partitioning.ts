/**
 * Picks a partition from a key for the in-process bus. Any stable hash gives what matters —
 * one key always lands on one partition, so its messages stay in order — and FNV-1a is short.
 */
export function partitionForKey(key: string, partitions: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % partitions;
}
