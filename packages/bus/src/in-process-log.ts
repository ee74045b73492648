import type { EventEnvelope } from '@msg/contracts';
import { partitionForKey } from './partitioning.js';

export interface StoredRecord {
  offset: number;
  key: string;
  /** Serialized once, parsed per delivery: every handler gets its own copy, as over Kafka. */
  json: string;
  headers: Record<string, string>;
}

/** How many already-consumed records a plain topic keeps for late `fromBeginning` readers. */
const RETAINED_CONSUMED_RECORDS = 10_000;

/**
 * One partition's log. Records sit in offset order; a compacted log drops a record once a newer
 * one with the same key arrives (lazily, like Kafka's cleaner, so offsets keep their gaps).
 */
export class PartitionLog {
  private records: StoredRecord[] = [];
  private readonly latestByKey = new Map<string, number>();
  private superseded = 0;
  nextOffset = 0;

  constructor(private readonly compacted: boolean) {}

  append(key: string, value: EventEnvelope, headers: Record<string, string>): StoredRecord {
    const record = { offset: this.nextOffset++, key, json: JSON.stringify(value), headers };
    this.records.push(record);
    if (this.compacted) {
      if (this.latestByKey.has(key)) this.superseded++;
      this.latestByKey.set(key, record.offset);
      if (this.superseded > Math.max(1_000, this.latestByKey.size)) this.compact();
    }
    return record;
  }

  /** The first live record at or after `offset`, if any. */
  readFrom(offset: number): StoredRecord | undefined {
    let lo = 0;
    let hi = this.records.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const rec = this.records[mid];
      if (rec !== undefined && rec.offset < offset) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.records.length; i++) {
      const rec = this.records[i];
      if (rec !== undefined && this.isLive(rec)) return rec;
    }
    return undefined;
  }

  startOffset(): number {
    return this.records[0]?.offset ?? this.nextOffset;
  }

  /** Drops consumed records of a plain topic beyond the retained tail, so memory stays bounded. */
  trim(consumedBelow: number): void {
    if (this.compacted) return;
    const cut = Math.min(consumedBelow, this.nextOffset - RETAINED_CONSUMED_RECORDS);
    const drop = this.records.findIndex((r) => r.offset >= cut);
    // Splicing is O(n): only worth it in chunks.
    if (drop > 1_000) this.records.splice(0, drop);
  }

  private isLive(rec: StoredRecord): boolean {
    return !this.compacted || this.latestByKey.get(rec.key) === rec.offset;
  }

  private compact(): void {
    this.records = this.records.filter((r) => this.isLive(r));
    this.superseded = 0;
  }
}

export class TopicLog {
  readonly partitions: PartitionLog[];

  constructor(partitionCount: number, compacted: boolean) {
    this.partitions = Array.from({ length: partitionCount }, () => new PartitionLog(compacted));
  }

  partitionFor(key: string): number {
    return partitionForKey(key, this.partitions.length);
  }
}
