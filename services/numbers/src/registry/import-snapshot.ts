import { withTransaction } from '@msg/db';
import type { Pool, PoolClient } from 'pg';
import type { PortRow, SnapshotFiles } from './snapshot-files.js';

export type ImportOutcome =
  | { outcome: 'imported'; snapshotId: number; providers: number; ports: number; ranges: number }
  | { outcome: 'unchanged'; snapshotId: number };

/** The latest port of each number: who serves it as of the snapshot. */
function latestPorts(ports: PortRow[]): PortRow[] {
  const latest = new Map<string, PortRow>();
  for (const port of ports) {
    const seen = latest.get(port.number);
    if (!seen || seen.portedAt < port.portedAt) latest.set(port.number, port);
  }
  return [...latest.values()];
}

async function insertSnapshotRows(client: PoolClient, id: number, files: SnapshotFiles) {
  const { providers, ranges, ports } = files;
  await client.query(
    `INSERT INTO numbers.service_provider
       (snapshot_id, spid, name, brands, host_mcc, host_mnc, host_name)
     SELECT $1, p.spid, p.name, ARRAY(SELECT json_array_elements_text(p.brands::json)), p.host_mcc,
            p.host_mnc, p.host_name
       FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
            AS p(spid, name, brands, host_mcc, host_mnc, host_name)`,
    [
      id,
      providers.map((p) => p.spid),
      providers.map((p) => p.name),
      providers.map((p) => JSON.stringify(p.brands)),
      providers.map((p) => p.hostMcc),
      providers.map((p) => p.hostMnc),
      providers.map((p) => p.hostName),
    ],
  );
  await client.query(
    `INSERT INTO numbers.number_range (snapshot_id, prefix, holder_spid)
     SELECT $1, r.prefix, r.holder_spid FROM unnest($2::text[], $3::text[]) AS r(prefix, holder_spid)`,
    [id, ranges.map((r) => r.prefix), ranges.map((r) => r.holderSpid)],
  );
  const current = latestPorts(ports);
  await client.query(
    `INSERT INTO numbers.ported_number (snapshot_id, number, recipient_spid, ported_at)
     SELECT $1, p.number, p.recipient_spid, p.ported_at
       FROM unnest($2::text[], $3::text[], $4::date[]) AS p(number, recipient_spid, ported_at)`,
    [
      id,
      current.map((p) => p.number),
      current.map((p) => p.recipientSpid),
      current.map((p) => p.portedAt),
    ],
  );
  // History outlives snapshots: a port already known keeps the snapshot that first listed it.
  await client.query(
    `INSERT INTO numbers.port_history
       (number, ported_at, donor_spid, recipient_spid, donor_name, recipient_name, first_snapshot_id)
     SELECT h.number, h.ported_at, h.donor_spid, h.recipient_spid, d.name, r.name, $1
       FROM unnest($2::text[], $3::date[], $4::text[], $5::text[])
            AS h(number, ported_at, donor_spid, recipient_spid)
       JOIN numbers.service_provider d ON d.snapshot_id = $1 AND d.spid = h.donor_spid
       JOIN numbers.service_provider r ON r.snapshot_id = $1 AND r.spid = h.recipient_spid
     ON CONFLICT (number, ported_at, donor_spid, recipient_spid) DO NOTHING`,
    [
      id,
      ports.map((p) => p.number),
      ports.map((p) => p.portedAt),
      ports.map((p) => p.donorSpid),
      ports.map((p) => p.recipientSpid),
    ],
  );
  return { providers: providers.length, ranges: ranges.length, ports: current.length };
}

/**
 * Imports a snapshot in ONE transaction: its rows under a new snapshot id, its ports added to the
 * history, then the current-snapshot pointer switched and the rows of older snapshots dropped.
 * Readers read through the pointer in single statements, so they see the old snapshot or the new
 * one, never half of one. The same snapshot (same date, same files) again changes nothing; a
 * different snapshot for a date already imported, or one older than the current, is refused.
 */
export async function importSnapshot(pool: Pool, files: SnapshotFiles): Promise<ImportOutcome> {
  return withTransaction(pool, async (client) => {
    // Importers take turns (a second one waits here, then sees the first one's snapshot).
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', ['numbers.import']);
    const existing = await client.query<{ id: number; checksum: string }>(
      'SELECT id, checksum FROM numbers.snapshot WHERE snapshot_date = $1',
      [files.snapshotDate],
    );
    const known = existing.rows[0];
    if (known) {
      if (known.checksum !== files.checksum) {
        throw new Error(
          `a different snapshot of ${files.snapshotDate} was already imported; a snapshot date is imported once`,
        );
      }
      // Imported before (it is the current one, or was until a newer one replaced it).
      return { outcome: 'unchanged', snapshotId: known.id };
    }
    const newer = await client.query<{ snapshot_date: string }>(
      `SELECT to_char(s.snapshot_date, 'YYYY-MM-DD') AS snapshot_date
         FROM numbers.current_snapshot c JOIN numbers.snapshot s ON s.id = c.snapshot_id
        WHERE s.snapshot_date > $1`,
      [files.snapshotDate],
    );
    if (newer.rows[0]) {
      throw new Error(
        `the current snapshot (${newer.rows[0].snapshot_date}) is newer than ${files.snapshotDate}`,
      );
    }
    const inserted = await client.query<{ id: number }>(
      `INSERT INTO numbers.snapshot (snapshot_date, valid_until, history_since, checksum)
       VALUES ($1, $2, $3, $4) RETURNING id`,
      [files.snapshotDate, files.validUntil, files.historySince, files.checksum],
    );
    const id = inserted.rows[0]?.id;
    if (id === undefined) throw new Error('snapshot insert returned no id');
    const counts = await insertSnapshotRows(client, id, files);
    await client.query(
      `INSERT INTO numbers.current_snapshot (singleton, snapshot_id, switched_at)
       VALUES (true, $1, now())
       ON CONFLICT (singleton) DO UPDATE SET snapshot_id = EXCLUDED.snapshot_id, switched_at = now()`,
      [id],
    );
    // Only the current snapshot's rows are read; history lives in port_history.
    for (const table of ['service_provider', 'number_range', 'ported_number']) {
      await client.query(`DELETE FROM numbers.${table} WHERE snapshot_id <> $1`, [id]);
    }
    return { outcome: 'imported', snapshotId: id, ...counts };
  });
}
