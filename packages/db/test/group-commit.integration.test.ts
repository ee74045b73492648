import { afterAll, beforeAll, expect, it } from 'vitest';
import { createGroupCommit } from '../src/batcher.js';
import { describeOnEachBackend } from './support/test-database.js';

describeOnEachBackend('group commit', (db) => {
  let table: string;
  let schema: string;

  beforeAll(async () => {
    schema = db.uniqueSchema('gc');
    table = `"${schema}".item`;
    await db.pool.query(`CREATE SCHEMA "${schema}"`);
    await db.pool.query(`CREATE TABLE ${table} (id INTEGER PRIMARY KEY, txid BIGINT NOT NULL)`);
  });

  afterAll(async () => {
    await db.pool.query(`DROP SCHEMA "${schema}" CASCADE`);
  });

  it('when 200 items are added at once, then they are committed in a few transactions with one multi-row statement each, and each add resolves after its commit', async () => {
    const group = createGroupCommit(db.pool, async (client, ids: number[]) => {
      const { rows } = await client.query<{ id: number }>(
        `INSERT INTO ${table} (id, txid) SELECT id, txid_current() FROM unnest($1::int[]) id
         RETURNING id`,
        [ids],
      );
      return rows.map((row) => row.id);
    });
    const ids = Array.from({ length: 200 }, (_, i) => i + 1);

    const results = await Promise.all(
      ids.map(async (id) => {
        await group.add(id);
        // Resolved: the row must be visible to any other session now.
        const { rows } = await db.pool.query(`SELECT 1 FROM ${table} WHERE id = $1`, [id]);
        return rows.length;
      }),
    );

    expect(results.every((found) => found === 1)).toBe(true);
    const { rows } = await db.pool.query<{ n: string }>(
      `SELECT count(DISTINCT txid) AS n FROM ${table}`,
    );
    expect(Number(rows[0]?.n)).toBeLessThanOrEqual(2);
  });

  it('when one item of a batch breaks the transaction, then the others are committed and only its caller is rejected', async () => {
    const group = createGroupCommit(db.pool, async (client, ids: number[]) => {
      await client.query(
        `INSERT INTO ${table} (id, txid) SELECT id, txid_current() FROM unnest($1::int[]) id`,
        [ids],
      );
      return ids;
    });

    // 1 already exists: the batch's INSERT fails on its primary key.
    const results = await Promise.allSettled([1001, 1, 1002].map((id) => group.add(id)));

    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const { rows } = await db.pool.query<{ id: number }>(
      `SELECT id FROM ${table} WHERE id > 1000 ORDER BY id`,
    );
    expect(rows.map((row) => row.id)).toEqual([1001, 1002]);
  });
});
