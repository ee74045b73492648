import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type CsvRecord, parseCsv } from './csv.js';

/** A service provider row of providers.csv. */
export interface ProviderRow {
  spid: string;
  name: string;
  brands: string[];
  hostMcc: string | null;
  hostMnc: string | null;
  hostName: string | null;
}

/** A number block of ranges.csv. */
export interface RangeRow {
  prefix: string;
  holderSpid: string;
}

/** One port of ports.csv. */
export interface PortRow {
  number: string;
  portedAt: string;
  donorSpid: string;
  recipientSpid: string;
}

/** A snapshot directory, read and checked. */
export interface SnapshotFiles {
  /** YYYY-MM-DD. */
  snapshotDate: string;
  validUntil: Date;
  /** YYYY-MM-DD. */
  historySince: string;
  providers: ProviderRow[];
  ranges: RangeRow[];
  ports: PortRow[];
  /** sha256 (hex) of the files and the effective snapshot date. */
  checksum: string;
}

export interface ReadSnapshotOptions {
  /** Import the files as the snapshot of this date (YYYY-MM-DD) instead of snapshot.json's. */
  snapshotDate?: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DIGITS = /^[1-9]\d{1,14}$/;
const SPID = /^[A-Za-z0-9]{1,16}$/;

function isDate(value: unknown): value is string {
  return typeof value === 'string' && DATE.test(value) && !Number.isNaN(Date.parse(value));
}

function nextDay(date: string): Date {
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + 1);
  return day;
}

function required(record: CsvRecord, file: string, name: string, rule?: RegExp): string {
  const value = record.fields[name] ?? '';
  if (value === '') throw new Error(`${file}:${record.line}: ${name} is required`);
  if (rule && !rule.test(value)) throw new Error(`${file}:${record.line}: ${name} is malformed`);
  return value;
}

function needColumns(header: string[], file: string, columns: string[]): void {
  const missing = columns.filter((column) => !header.includes(column));
  if (missing.length > 0) throw new Error(`${file}: missing column(s) ${missing.join(', ')}`);
}

function readProviders(text: string): ProviderRow[] {
  const file = 'providers.csv';
  const { header, records } = parseCsv(text, file);
  needColumns(header, file, ['spid', 'name', 'brands', 'host_mcc', 'host_mnc', 'host_name']);
  const seen = new Set<string>();
  return records.map((record) => {
    const spid = required(record, file, 'spid', SPID);
    if (seen.has(spid)) throw new Error(`${file}:${record.line}: spid ${spid} listed twice`);
    seen.add(spid);
    const host = ['host_mcc', 'host_mnc', 'host_name'].map((name) => record.fields[name] ?? '');
    const [hostMcc = '', hostMnc = '', hostName = ''] = host;
    const given = host.filter((value) => value !== '').length;
    if (given !== 0 && given !== 3) {
      throw new Error(`${file}:${record.line}: host_mcc, host_mnc and host_name go together`);
    }
    if (given === 3 && (!/^\d{3}$/.test(hostMcc) || !/^\d{2,3}$/.test(hostMnc))) {
      throw new Error(`${file}:${record.line}: host_mcc is 3 digits, host_mnc 2 or 3`);
    }
    return {
      spid,
      name: required(record, file, 'name'),
      brands: (record.fields.brands ?? '')
        .split('|')
        .map((brand) => brand.trim())
        .filter((brand) => brand !== ''),
      hostMcc: given ? hostMcc : null,
      hostMnc: given ? hostMnc : null,
      hostName: given ? hostName : null,
    };
  });
}

function readRanges(text: string, spids: Set<string>): RangeRow[] {
  const file = 'ranges.csv';
  const { header, records } = parseCsv(text, file);
  needColumns(header, file, ['prefix', 'holder_spid']);
  const seen = new Set<string>();
  return records.map((record) => {
    const prefix = required(record, file, 'prefix', /^[1-9]\d{0,14}$/);
    const holderSpid = required(record, file, 'holder_spid', SPID);
    if (!spids.has(holderSpid)) {
      throw new Error(`${file}:${record.line}: holder_spid ${holderSpid} is not in providers.csv`);
    }
    if (seen.has(prefix)) throw new Error(`${file}:${record.line}: prefix ${prefix} listed twice`);
    seen.add(prefix);
    return { prefix, holderSpid };
  });
}

function readPorts(text: string, spids: Set<string>): PortRow[] {
  const file = 'ports.csv';
  const { header, records } = parseCsv(text, file);
  needColumns(header, file, ['number', 'ported_at', 'donor_spid', 'recipient_spid']);
  const seen = new Set<string>();
  return records.map((record) => {
    const number = required(record, file, 'number').replace(/^\+/, '');
    if (!DIGITS.test(number)) throw new Error(`${file}:${record.line}: number is not E.164`);
    const portedAt = required(record, file, 'ported_at');
    if (!isDate(portedAt)) throw new Error(`${file}:${record.line}: ported_at is not YYYY-MM-DD`);
    const donorSpid = required(record, file, 'donor_spid', SPID);
    const recipientSpid = required(record, file, 'recipient_spid', SPID);
    for (const spid of [donorSpid, recipientSpid]) {
      if (!spids.has(spid)) {
        throw new Error(`${file}:${record.line}: spid ${spid} is not in providers.csv`);
      }
    }
    const key = `${number}|${portedAt}`;
    if (seen.has(key)) {
      throw new Error(`${file}:${record.line}: ${number} has two ports on ${portedAt}`);
    }
    seen.add(key);
    return { number, portedAt, donorSpid, recipientSpid };
  });
}

/**
 * Reads a snapshot directory (format: README.md of the service): snapshot.json, providers.csv,
 * ranges.csv, ports.csv. Throws naming the file and line of the first problem; nothing is
 * imported from a snapshot with any problem.
 */
export async function readSnapshotFiles(
  dir: string,
  options: ReadSnapshotOptions = {},
): Promise<SnapshotFiles> {
  const [manifestText, providersText, rangesText, portsText] = await Promise.all(
    ['snapshot.json', 'providers.csv', 'ranges.csv', 'ports.csv'].map((name) =>
      readFile(join(dir, name), 'utf8'),
    ),
  );
  const manifest: unknown = JSON.parse(manifestText ?? '');
  if (typeof manifest !== 'object' || manifest === null) {
    throw new Error('snapshot.json: expected an object');
  }
  const snapshotDate = options.snapshotDate ?? Reflect.get(manifest, 'snapshot_date');
  if (!isDate(snapshotDate)) throw new Error('snapshot.json: snapshot_date is not YYYY-MM-DD');
  const givenValidUntil: unknown = Reflect.get(manifest, 'valid_until');
  let validUntil = nextDay(snapshotDate);
  // valid_until belongs to the date in the file; a snapshot imported as another date is valid for a day.
  if (givenValidUntil !== undefined && options.snapshotDate === undefined) {
    if (typeof givenValidUntil !== 'string' || Number.isNaN(Date.parse(givenValidUntil))) {
      throw new Error('snapshot.json: valid_until is not a timestamp');
    }
    validUntil = new Date(givenValidUntil);
  }
  const providers = readProviders(providersText ?? '');
  const spids = new Set(providers.map((provider) => provider.spid));
  const ranges = readRanges(rangesText ?? '', spids);
  const ports = readPorts(portsText ?? '', spids);
  const givenSince: unknown = Reflect.get(manifest, 'history_since');
  if (givenSince !== undefined && !isDate(givenSince)) {
    throw new Error('snapshot.json: history_since is not YYYY-MM-DD');
  }
  const earliestPort = ports.map((port) => port.portedAt).sort()[0];
  const historySince = givenSince ?? earliestPort ?? snapshotDate;
  const checksum = createHash('sha256')
    .update(JSON.stringify([snapshotDate, manifestText, providersText, rangesText, portsText]))
    .digest('hex');
  return { snapshotDate, validUntil, historySince, providers, ranges, ports, checksum };
}
