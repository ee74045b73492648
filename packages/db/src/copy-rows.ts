import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

export interface CopyColumn {
  /** Column name: lower-case letters, digits and _ (it is quoted into the statement). */
  name: string;
}

export interface CopyRowsOptions {
  /** The table, already quoted: '"batch"."message"'. */
  table: string;
  columns: CopyColumn[];
  /** One array per row, values in column order as Postgres text input; null is SQL NULL. */
  rows: AsyncIterable<(string | null)[]> | Iterable<(string | null)[]>;
}

/** Bytes of COPY text gathered before they are written to the connection. */
export const COPY_CHUNK_BYTES = 64 * 1024;

const COLUMN_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Bulk-loads rows into `table` on `client` (usually inside a transaction) and returns how many.
 *
 * It streams `COPY ... FROM STDIN` (text format) and waits for the connection to drain, so
 * memory stays bounded however many rows the iterable yields and however slowly it yields them.
 *
 * An error thrown by the iterable aborts the load (COPY is failed on the server) and is
 * rethrown; the caller's transaction must then be rolled back.
 */
export async function copyRows(
  client: pg.PoolClient,
  { table, columns, rows }: CopyRowsOptions,
): Promise<number> {
  checkColumns(columns);
  return copyIn(client, table, columns, rows);
}

function checkColumns(columns: CopyColumn[]): void {
  if (columns.length === 0) throw new Error('copyRows: at least one column is needed');
  for (const { name } of columns) {
    if (!COLUMN_NAME.test(name)) throw new Error(`copyRows: invalid column name ${name}`);
  }
}

/** One value in COPY text format: \N for null; backslash, tab, newline and CR escaped. */
export function copyTextValue(value: string | null): string {
  if (value === null) return '\\N';
  if (!/[\\\t\n\r]/.test(value)) return value;
  return value.replace(/[\\\t\n\r]/g, (char) => COPY_ESCAPES[char] ?? char);
}

const COPY_ESCAPES: Record<string, string> = {
  '\\': '\\\\',
  '\t': '\\t',
  '\n': '\\n',
  '\r': '\\r',
};

async function* copyText(
  rows: AsyncIterable<(string | null)[]> | Iterable<(string | null)[]>,
  width: number,
  counter: { rows: number },
): AsyncGenerator<Buffer> {
  let chunk = '';
  for await (const row of rows) {
    if (row.length !== width) {
      throw new Error(`copyRows: row ${counter.rows + 1} has ${row.length} values, not ${width}`);
    }
    chunk += `${row.map(copyTextValue).join('\t')}\n`;
    counter.rows += 1;
    if (chunk.length >= COPY_CHUNK_BYTES) {
      yield Buffer.from(chunk, 'utf8');
      chunk = '';
    }
  }
  if (chunk !== '') yield Buffer.from(chunk, 'utf8');
}

async function copyIn(
  client: pg.PoolClient,
  table: string,
  columns: CopyColumn[],
  rows: CopyRowsOptions['rows'],
): Promise<number> {
  const names = columns.map((c) => `"${c.name}"`).join(', ');
  const counter = { rows: 0 };
  const stream = client.query(copyFrom(`COPY ${table} (${names}) FROM STDIN`));
  // pipeline waits for the connection to take each chunk (backpressure) and, on an error of the
  // source, destroys the COPY stream, which sends CopyFail and lets the server end the COPY.
  await pipeline(Readable.from(copyText(rows, columns.length, counter)), stream);
  return counter.rows;
}
