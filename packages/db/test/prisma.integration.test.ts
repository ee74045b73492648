import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { migrate } from '../src/migrate/migrate.js';
import { createPrismaClient } from '../src/prisma-client.js';
import { prismaSql } from '../src/prisma-sql.js';
import type { PrismaClient } from './fixture/src/generated/prisma/client.js';
import { fixtureMigrationsDir, loadFixtureClient } from './support/fixture-client.js';
import { describeOnEachBackend } from './support/test-database.js';
import { testLogger } from './support/test-logger.js';

describeOnEachBackend('a Prisma client on the pool', (db) => {
  let prisma: PrismaClient;

  beforeAll(async () => {
    const { PrismaClient } = await loadFixtureClient();
    await migrate({
      pool: db.pool,
      schema: 'db_fixture',
      migrationsDirs: [fixtureMigrationsDir],
      logger: testLogger().logger,
    });
    prisma = createPrismaClient(PrismaClient, db.pool);
  });

  afterAll(async () => {
    await prisma.$disconnect();
  });

  beforeEach(async () => {
    await prisma.widget.deleteMany();
  });

  it('when creating, reading, updating and deleting, then each change is visible', async () => {
    const created = await prisma.widget.create({
      data: {
        name: 'sprocket',
        tags: ['a', 'b'],
        attrs: { size: 3, nested: { ok: true } },
        parts: { create: [{ label: 'left' }, { label: 'right' }] },
      },
      include: { parts: { orderBy: { seq: 'asc' } } },
    });
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.tags).toEqual(['a', 'b']);
    expect(created.attrs).toEqual({ size: 3, nested: { ok: true } });
    expect(created.createdAt).toBeInstanceOf(Date);
    expect(created.parts.map((part) => part.label)).toEqual(['left', 'right']);
    expect(typeof created.parts[0]?.seq).toBe('bigint');

    const updated = await prisma.widget.update({
      where: { id: created.id },
      data: { name: 'gear', tags: { push: 'c' } },
    });
    expect(updated).toMatchObject({ name: 'gear', tags: ['a', 'b', 'c'] });

    await prisma.widget.delete({ where: { id: created.id } });
    expect(await prisma.widget.findUnique({ where: { id: created.id } })).toBeNull();
    expect(await prisma.part.count()).toBe(0);
  });

  it('when an interactive transaction completes, then all its writes are committed', async () => {
    await prisma.$transaction(async (tx) => {
      const widget = await tx.widget.create({ data: { name: 'one' } });
      await tx.part.create({ data: { widgetId: widget.id, label: 'p' } });
      await tx.widget.create({ data: { name: 'two' } });
    });
    expect(await prisma.widget.count()).toBe(2);
    expect(await prisma.part.count()).toBe(1);
  });

  it('when an interactive transaction throws, then none of its writes remain', async () => {
    await expect(
      prisma.$transaction(async (tx) => {
        await tx.widget.create({ data: { name: 'doomed' } });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await prisma.widget.count()).toBe(0);
  });

  it('when raw SQL runs through prismaSql in the transaction, then it commits or rolls back with it', async () => {
    const eventId = crypto.randomUUID();
    const insert = `INSERT INTO "db_fixture"."widget" (id, name, attrs) VALUES ($1::uuid, $2, $3::jsonb)
                    ON CONFLICT (id) DO NOTHING`;
    await prisma.$transaction(async (tx) => {
      const sql = prismaSql(tx);
      expect(await sql.query(insert, [eventId, 'raw', JSON.stringify({ via: 'sql' })])).toEqual({
        rows: [],
        rowCount: 1,
      });
      expect((await sql.query(insert, [eventId, 'raw', '{}'])).rowCount).toBe(0);
      const selected = await sql.query<{ name: string }>(
        'SELECT name FROM "db_fixture"."widget" WHERE id = $1::uuid',
        [eventId],
      );
      expect(selected).toEqual({ rows: [{ name: 'raw' }], rowCount: 1 });
      await tx.part.create({ data: { widgetId: eventId, label: 'model write' } });
    });
    expect(await prisma.widget.findUnique({ where: { id: eventId } })).toMatchObject({
      name: 'raw',
      attrs: { via: 'sql' },
    });

    const rolledBack = crypto.randomUUID();
    await expect(
      prisma.$transaction(async (tx) => {
        await prismaSql(tx).query(insert, [rolledBack, 'gone', '{}']);
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await prisma.widget.findUnique({ where: { id: rolledBack } })).toBeNull();
  });

  it('when work is claimed with FOR UPDATE SKIP LOCKED through Prisma, then the oldest unclaimed row is taken', async () => {
    await prisma.widget.create({ data: { name: 'first', createdAt: new Date(1_000) } });
    await prisma.widget.create({ data: { name: 'second', createdAt: new Date(2_000) } });

    const claimed = await prisma.$transaction(async (tx) => {
      const rows = await tx.$queryRaw<{ id: string; name: string }[]>`
        SELECT id, name FROM "db_fixture"."widget" WHERE claimed_at IS NULL
        ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED`;
      await tx.widget.updateMany({
        where: { id: { in: rows.map((row) => row.id) } },
        data: { claimedAt: new Date() },
      });
      return rows.map((row) => row.name);
    });
    expect(claimed).toEqual(['first']);
    expect(await prisma.widget.count({ where: { claimedAt: null } })).toBe(1);
  });
});
