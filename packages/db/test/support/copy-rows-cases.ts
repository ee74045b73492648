import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { COPY_CHUNK_BYTES, copyRows } from '../../src/copy-rows.js';
import { withTransaction } from '../../src/transaction.js';

const COLUMNS = [{ name: 'id' }, { name: 'label' }, { name: 'doc' }];
/** Rows enough for several COPY chunks (a row is about 25 bytes of COPY text). */
const MANY_ROWS = Math.ceil((COPY_CHUNK_BYTES / 25) * 3);

async function* generate(count: number, fail?: number): AsyncGenerator<(string | null)[]> {
  for (let i = 1; i <= count; i += 1) {
    if (i === fail) throw new Error(`source failed at ${i}`);
    yield [String(i), `row ${i}`, JSON.stringify({ n: i })];
  }
}

/** The copyRows cases every backend (a Postgres server, embedded Postgres) must pass. */
export function copyRowsCases(pool: () => pg.Pool): void {
  const schema = `copy_${randomBytes(4).toString('hex')}`;
  const table = `"${schema}"."item"`;

  beforeAll(async () => {
    await pool().query(`CREATE SCHEMA "${schema}"`);
    await pool().query(`CREATE TABLE ${table} (id INTEGER PRIMARY KEY, label TEXT, doc JSONB)`);
  });
  afterAll(async () => {
    await pool().query(`DROP SCHEMA "${schema}" CASCADE`);
  });

  async function load(rows: AsyncIterable<(string | null)[]> | Iterable<(string | null)[]>) {
    await pool().query(`TRUNCATE ${table}`);
    return withTransaction(pool(), (client) => copyRows(client, { table, columns: COLUMNS, rows }));
  }

  async function stored() {
    const { rows } = await pool().query<{ id: number; label: string | null; doc: unknown }>(
      `SELECT id, label, doc FROM ${table} ORDER BY id`,
    );
    return rows;
  }

  it('when values hold backslashes, tabs, newlines, CRs, quotes, commas, braces and unicode, then they arrive unchanged', async () => {
    const tricky = [
      'back\\slash',
      'tab\there',
      'new\nline',
      'cr\r\nlf',
      '\\N',
      'quote "x" \'y\'',
      '{a,b}',
      'NULL',
      '',
      'åäö 😀 中文',
      '\\\\t',
    ];
    const rows = tricky.map((label, i) => [
      String(i + 1),
      label,
      JSON.stringify({ label, nested: { tab: '\t' } }),
    ]);
    expect(await load(rows)).toBe(tricky.length);
    const back = await stored();
    expect(back.map((r) => r.label)).toEqual(tricky);
    expect(back.map((r) => r.doc)).toEqual(
      tricky.map((label) => ({ label, nested: { tab: '\t' } })),
    );
  });

  it('when a value is null, then the column is NULL (and the text "\\N" stays text)', async () => {
    expect(
      await load([
        ['1', null, null],
        ['2', '\\N', 'null'],
      ]),
    ).toBe(2);
    const back = await stored();
    expect(back).toEqual([
      { id: 1, label: null, doc: null },
      { id: 2, label: '\\N', doc: null },
    ]);
    const { rows } = await pool().query<{ n: string }>(
      `SELECT count(*)::text AS n FROM ${table} WHERE doc IS NULL`,
    );
    // JSON null is a jsonb value, not SQL NULL.
    expect(rows[0]?.n).toBe('1');
  });

  it('when there are more rows than one chunk, then all arrive in order', async () => {
    const count = MANY_ROWS + 17;
    expect(await load(generate(count))).toBe(count);
    const { rows } = await pool().query<{ n: string; s: string; last: string }>(
      `SELECT count(*)::text AS n, sum(id)::text AS s, max(label) FILTER (WHERE id = ${count}) AS last FROM ${table}`,
    );
    expect(rows[0]).toEqual({
      n: String(count),
      s: String((count * (count + 1)) / 2),
      last: `row ${count}`,
    });
  });

  it('when there are no rows, then 0 and nothing stored', async () => {
    expect(await load([])).toBe(0);
    expect(await stored()).toEqual([]);
  });

  it('when the source throws midway, then the error comes back, nothing is stored and the connection still works', async () => {
    await pool().query(`TRUNCATE ${table}`);
    await expect(
      withTransaction(pool(), (client) =>
        copyRows(client, {
          table,
          columns: COLUMNS,
          rows: generate(MANY_ROWS + 10, MANY_ROWS + 5),
        }),
      ),
    ).rejects.toThrow(`source failed at ${MANY_ROWS + 5}`);
    expect(await stored()).toEqual([]);
    expect(await load(generate(3))).toBe(3);
  });

  it('when a row breaks a constraint, then the load fails with the database error', async () => {
    await expect(
      load([
        ['1', 'a', null],
        ['1', 'b', null],
      ]),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await load(generate(2))).toBe(2);
  });

  it('when a row has the wrong number of values or a column name is unsafe, then it is refused', async () => {
    await expect(load([['1', 'a']])).rejects.toThrow(/has 2 values, not 3/);
    await expect(
      withTransaction(pool(), (client) =>
        copyRows(client, { table, columns: [{ name: 'id"; DROP' }], rows: [] }),
      ),
    ).rejects.toThrow(/invalid column name/);
  });
}
