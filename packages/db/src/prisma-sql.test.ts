import { describe, expect, it } from 'vitest';
import { type PrismaRawQueries, prismaSql, returnsRows } from './prisma-sql.js';

describe('returnsRows', () => {
  it.each([
    'SELECT 1',
    '  select * from t',
    '(SELECT 1) UNION (SELECT 2)',
    'WITH x AS (SELECT 1) SELECT * FROM x',
    '-- leading comment\nSELECT 1',
    '/* block */ VALUES (1)',
    'INSERT INTO t (a) VALUES ($1) RETURNING id',
    'UPDATE t SET a = 1 WHERE id = $1 returning *',
    'DELETE FROM t RETURNING 1',
  ])('when the statement is %j, then it returns rows', (text) => {
    expect(returnsRows(text)).toBe(true);
  });

  it.each([
    'INSERT INTO t (a) VALUES ($1) ON CONFLICT DO NOTHING',
    "INSERT INTO t (a) VALUES ('returning')",
    'INSERT INTO t ("returning") VALUES (1)',
    'UPDATE t SET a = $$ returning $$',
    'DELETE FROM t -- returning\n',
    'CREATE TABLE t (a int)',
    '',
  ])('when the statement is %j, then it returns no rows', (text) => {
    expect(returnsRows(text)).toBe(false);
  });
});

function fakeTx() {
  const calls: { kind: 'query' | 'execute'; text: string; values: unknown[] }[] = [];
  const tx: PrismaRawQueries = {
    async $queryRawUnsafe<T>(text: string, ...values: unknown[]): Promise<T> {
      calls.push({ kind: 'query', text, values });
      // Parsed rows are untyped, as Prisma's are before the caller names their type.
      return JSON.parse('[{ "id": 1 }, { "id": 2 }]');
    },
    async $executeRawUnsafe(text: string, ...values: unknown[]) {
      calls.push({ kind: 'execute', text, values });
      return 1;
    },
  };
  return { tx, calls };
}

describe('prismaSql', () => {
  it('when querying rows, then it uses $queryRawUnsafe and counts the rows', async () => {
    const { tx, calls } = fakeTx();
    const result = await prismaSql(tx).query('SELECT id FROM t WHERE a = $1', ['x']);
    expect(result).toEqual({ rows: [{ id: 1 }, { id: 2 }], rowCount: 2 });
    expect(calls).toEqual([
      { kind: 'query', text: 'SELECT id FROM t WHERE a = $1', values: ['x'] },
    ]);
  });

  it('when changing rows without RETURNING, then it uses $executeRawUnsafe for the count', async () => {
    const { tx, calls } = fakeTx();
    const result = await prismaSql(tx).query('INSERT INTO t VALUES ($1) ON CONFLICT DO NOTHING', [
      'x',
    ]);
    expect(result).toEqual({ rows: [], rowCount: 1 });
    expect(calls.map((c) => c.kind)).toEqual(['execute']);
  });
});
