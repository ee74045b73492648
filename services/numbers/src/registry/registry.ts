import type { Sql } from '@msg/db';

export interface RegistryProvider {
  spid: string;
  name: string;
  brands: string[];
  host: { mcc: string; mnc: string; name: string } | null;
}

export interface RegistrySnapshotInfo {
  /** YYYY-MM-DD */
  snapshotDate: string;
  validUntil: Date;
  /** YYYY-MM-DD */
  historySince: string;
}

/** What the current snapshot says about one number. */
export interface RegistryAnswer {
  snapshot: RegistrySnapshotInfo;
  /** Who serves the number: the port's recipient, else the range holder; null when neither. */
  provider: RegistryProvider | null;
  rangeHolder: RegistryProvider | null;
  ported: boolean;
}

export interface RegistryPort {
  portedAt: string;
  donor: { spid: string; name: string };
  recipient: { spid: string; name: string };
}

export interface Registry {
  /** null when no snapshot was ever imported. */
  lookup(digits: string): Promise<RegistryAnswer | null>;
  /** Every port of the number known up to the current snapshot, newest first. */
  history(digits: string): Promise<RegistryPort[]>;
}

interface ProviderJson {
  spid: string;
  name: string;
  brands: string[];
  host_mcc: string | null;
  host_mnc: string | null;
  host_name: string | null;
}

type LookupRow = {
  snapshot_date: string;
  valid_until: Date;
  history_since: string;
  ported: boolean;
  provider: ProviderJson | null;
  range_holder: ProviderJson | null;
};

function provider(row: ProviderJson | null): RegistryProvider | null {
  if (!row) return null;
  return {
    spid: row.spid,
    name: row.name,
    brands: row.brands,
    host:
      row.host_mcc && row.host_mnc && row.host_name
        ? { mcc: row.host_mcc, mnc: row.host_mnc, name: row.host_name }
        : null,
  };
}

type HistoryRow = {
  ported_at: string;
  donor_spid: string;
  donor_name: string;
  recipient_spid: string;
  recipient_name: string;
};

/** Every leading part of the digits: the candidate range prefixes, longest match wins. */
function prefixesOf(digits: string): string[] {
  return Array.from({ length: digits.length }, (_, index) => digits.slice(0, index + 1));
}

/**
 * Reads the portability registry through the current-snapshot pointer. Each read is ONE
 * statement, so it sees one snapshot even while an import switches the pointer.
 */
export function createRegistry(sql: Sql): Registry {
  return {
    async lookup(digits) {
      const { rows } = await sql.query<LookupRow>(
        `WITH cur AS (
           SELECT s.id, to_char(s.snapshot_date, 'YYYY-MM-DD') AS snapshot_date, s.valid_until,
                  to_char(s.history_since, 'YYYY-MM-DD') AS history_since
             FROM numbers.current_snapshot c JOIN numbers.snapshot s ON s.id = c.snapshot_id
         ),
         port AS (
           SELECT pn.recipient_spid FROM numbers.ported_number pn, cur
            WHERE pn.snapshot_id = cur.id AND pn.number = $1
         ),
         holder AS (
           SELECT nr.holder_spid FROM numbers.number_range nr, cur
            WHERE nr.snapshot_id = cur.id AND nr.prefix = ANY($2::text[])
            ORDER BY length(nr.prefix) DESC LIMIT 1
         ),
         providers AS (
           SELECT sp.spid, json_build_object('spid', sp.spid, 'name', sp.name, 'brands', sp.brands,
                  'host_mcc', sp.host_mcc, 'host_mnc', sp.host_mnc, 'host_name', sp.host_name) AS doc
             FROM numbers.service_provider sp, cur
            WHERE sp.snapshot_id = cur.id
              AND sp.spid IN (SELECT recipient_spid FROM port UNION SELECT holder_spid FROM holder)
         )
         SELECT cur.snapshot_date, cur.valid_until, cur.history_since,
                EXISTS (SELECT 1 FROM port) AS ported,
                (SELECT doc FROM providers WHERE spid = COALESCE(
                   (SELECT recipient_spid FROM port), (SELECT holder_spid FROM holder))) AS provider,
                (SELECT doc FROM providers WHERE spid = (SELECT holder_spid FROM holder)) AS range_holder
           FROM cur`,
        [digits, prefixesOf(digits)],
      );
      const row = rows[0];
      if (!row) return null;
      return {
        snapshot: {
          snapshotDate: row.snapshot_date,
          validUntil: new Date(row.valid_until),
          historySince: row.history_since,
        },
        provider: provider(row.provider),
        rangeHolder: provider(row.range_holder),
        ported: row.ported,
      };
    },

    async history(digits) {
      const { rows } = await sql.query<HistoryRow>(
        `SELECT to_char(h.ported_at, 'YYYY-MM-DD') AS ported_at, h.donor_spid, h.donor_name,
                h.recipient_spid, h.recipient_name
           FROM numbers.port_history h
           JOIN numbers.current_snapshot c ON h.first_snapshot_id <= c.snapshot_id
          WHERE h.number = $1
          ORDER BY h.ported_at DESC, h.first_snapshot_id DESC`,
        [digits],
      );
      return rows.map((row) => ({
        portedAt: row.ported_at,
        donor: { spid: row.donor_spid, name: row.donor_name },
        recipient: { spid: row.recipient_spid, name: row.recipient_name },
      }));
    },
  };
}
