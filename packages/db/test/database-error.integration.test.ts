import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { classifyDatabaseError } from '../src/database-error.js';
import { migrate } from '../src/migrate/migrate.js';
import { createPool } from '../src/pool.js';
import { createPrismaClient } from '../src/prisma-client.js';
import { withTransaction } from '../src/transaction.js';
import type { PrismaClient } from './fixture/src/generated/prisma/client.js';
import { fixtureMigrationsDir, loadFixtureClient } from './support/fixture-client.js';
import { describeOnEachBackend } from './support/test-database.js';
import { testLogger } from './support/test-logger.js';

/** The error `promise` rejects with (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected the database call to fail'),
    (err: unknown) => err,
  );
}

const WIDGET_ID = '00000000-0000-4000-8000-000000000001';

// The errors here are raised by pg, Prisma and Prisma's pg adapter talking to a real server, so
// the shapes classifyDatabaseError reads are the real ones, not copies made for a test.
describeOnEachBackend('classifying real database errors', (db) => {
  let prisma: PrismaClient;
  let ClientClass: Awaited<ReturnType<typeof loadFixtureClient>>['PrismaClient'];

  beforeAll(async () => {
    ClientClass = (await loadFixtureClient()).PrismaClient;
    await migrate({
      pool: db.pool,
      schema: 'db_fixture',
      migrationsDirs: [fixtureMigrationsDir],
      logger: testLogger().logger,
    });
    prisma = createPrismaClient(ClientClass, db.pool);
  });

  afterAll(async () => {
    await prisma.$disconnect();
  });

  beforeEach(async () => {
    await prisma.widget.deleteMany();
    await prisma.widget.create({ data: { id: WIDGET_ID, name: 'first' } });
  });

  it('when pg inserts a duplicate key, then it is a unique violation naming the constraint', async () => {
    const err = await rejection(
      db.pool.query(`INSERT INTO db_fixture.widget (id, name) VALUES ($1, 'again')`, [WIDGET_ID]),
    );
    expect(classifyDatabaseError(err)).toEqual({
      kind: 'unique',
      sqlState: '23505',
      constraint: 'widget_pkey',
      table: 'widget',
    });
  });

  it('when a Prisma model create hits a duplicate key, then it is a unique violation (P2002)', async () => {
    const err = await rejection(prisma.widget.create({ data: { id: WIDGET_ID, name: 'again' } }));
    expect(classifyDatabaseError(err)).toMatchObject({
      kind: 'unique',
      prismaCode: 'P2002',
      sqlState: '23505',
    });
  });

  it('when a Prisma raw statement hits a duplicate key, then it is a unique violation (P2010 with 23505)', async () => {
    const err = await rejection(
      prisma.$executeRawUnsafe(
        `INSERT INTO db_fixture.widget (id, name) VALUES ($1::uuid, 'x')`,
        WIDGET_ID,
      ),
    );
    expect(classifyDatabaseError(err)).toMatchObject({
      kind: 'unique',
      prismaCode: 'P2010',
      sqlState: '23505',
    });
  });

  it('when the statement is a bug (no such table), then it is not classified', async () => {
    const err = await rejection(db.pool.query('SELECT * FROM db_fixture.no_such_table'));
    expect(classifyDatabaseError(err)).toBeUndefined();
    const viaPrisma = await rejection(prisma.$queryRawUnsafe('SELECT * FROM db_fixture.nope'));
    expect(classifyDatabaseError(viaPrisma)).toBeUndefined();
  });

  it('when two SERIALIZABLE transactions write what the other read, then the loser is a serialization failure', async () => {
    const other = db.openAnotherPool();
    const serializable = (pool: typeof db.pool, name: string, ready: Promise<void>) =>
      withTransaction(pool, async (client) => {
        await client.query('SET TRANSACTION ISOLATION LEVEL SERIALIZABLE');
        await client.query('SELECT count(*) FROM db_fixture.widget');
        await ready;
        await client.query(
          'INSERT INTO db_fixture.widget (id, name) VALUES (gen_random_uuid(), $1)',
          [name],
        );
      });
    let bothRead: () => void = () => {};
    const barrier = new Promise<void>((resolve) => {
      bothRead = resolve;
    });
    const first = serializable(db.pool, 'a', barrier);
    const second = serializable(other, 'b', barrier);
    setTimeout(bothRead, 200);
    const results = await Promise.allSettled([first, second]);
    const failures = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
    expect(failures).toHaveLength(1);
    expect(classifyDatabaseError(failures[0])).toMatchObject({
      kind: 'serialization',
      sqlState: '40001',
    });
  });

  it('when the server terminates a busy connection, then the query fails as unavailable (57P01)', async () => {
    const victim = db.openAnotherPool();
    const client = await victim.connect();
    try {
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const sleeping = client.query('SELECT pg_sleep(30)');
      const failed = rejection(sleeping);
      await db.pool.query('SELECT pg_terminate_backend($1)', [rows[0]?.pid]);
      expect(classifyDatabaseError(await failed)).toMatchObject({ kind: 'unavailable' });
    } finally {
      client.release(true);
    }
  });

  it('when nothing listens at the database address, then pg and Prisma both fail as unavailable', async () => {
    const nowhere = createPool({ url: 'postgres://postgres@127.0.0.1:1/none', max: 1 });
    try {
      const viaPg = await rejection(nowhere.query('SELECT 1'));
      expect(classifyDatabaseError(viaPg)).toEqual({
        kind: 'unavailable',
        sqlState: 'ECONNREFUSED',
      });
      const unreachable = createPrismaClient(ClientClass, nowhere);
      const viaPrisma = await rejection(unreachable.widget.count());
      expect(classifyDatabaseError(viaPrisma)).toMatchObject({ kind: 'unavailable' });
    } finally {
      await nowhere.end();
    }
  });
});
