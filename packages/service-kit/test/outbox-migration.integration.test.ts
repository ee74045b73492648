import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { OUTBOX_MIGRATIONS_DIR } from '@msg/bus';
import { migrate } from '@msg/db';
import { createLogger } from '@msg/logger';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Databases migrated by the release before the outbox moved into @msg/bus: their services' first
 * migrations created outbox_event and processed_event themselves. The fixtures are those first
 * migrations exactly as released (their checksums are the ones the services list as superseded).
 */
const TEST_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const released = (service: string) =>
  fileURLToPath(new URL(`./fixtures/released-migrations/${service}`, import.meta.url));
const current = (service: string) =>
  fileURLToPath(new URL(`../../../services/${service}/prisma/migrations`, import.meta.url));
const INIT = { admin: '20261122105436_init', sms: '20261122114916_init' } as const;
type Service = keyof typeof INIT;

function recordingLogger() {
  const lines: { level: string; message: string }[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: createLogger({ service: 'kit-test', level: 'debug', stream }), lines };
}

/** A database of its own, dropped afterwards: the services' migrations name their schemas. */
async function createDatabase() {
  const name = `kit_outbox_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  return {
    pool,
    async drop() {
      await pool.end();
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/** Columns, constraints and indexes of the outbox tables, to compare two databases. */
async function outboxShape(pool: pg.Pool, schema: string) {
  const columns = await pool.query(
    `SELECT table_name, column_name, data_type, is_nullable, column_default
       FROM information_schema.columns
      WHERE table_schema = $1 AND table_name IN ('outbox_event', 'processed_event')
      ORDER BY table_name, column_name`,
    [schema],
  );
  const indexes = await pool.query(
    `SELECT tablename, indexname, indexdef FROM pg_indexes
      WHERE schemaname = $1 AND tablename IN ('outbox_event', 'processed_event')
      ORDER BY indexname`,
    [schema],
  );
  return { columns: columns.rows, indexes: indexes.rows };
}

let existing: Awaited<ReturnType<typeof createDatabase>>;
let fresh: Awaited<ReturnType<typeof createDatabase>>;

beforeAll(async () => {
  existing = await createDatabase();
  fresh = await createDatabase();
});

afterAll(async () => {
  await existing?.drop();
  await fresh?.drop();
});

describe.each(Object.keys(INIT) as Service[])(
  'the outbox migration on a %s database migrated by the previous release',
  (service) => {
    it('when the fixture is read, then it is the text the service lists as superseded', () => {
      const text = readFileSync(`${released(service)}/${INIT[service]}/migration.sql`, 'utf8');
      const listed = readFileSync(`${current(service)}/${INIT[service]}/superseded.sha256`, 'utf8');
      expect(listed).toContain(createHash('sha256').update(text).digest('hex'));
    });

    it('when the new release migrates it, then only the outbox migration is recorded, nothing is re-created and no data is lost', async () => {
      const { logger, lines } = recordingLogger();
      const { pool } = existing;
      await migrate({ pool, schema: service, migrationsDirs: [released(service)], logger });
      const eventId = crypto.randomUUID();
      await pool.query(
        `INSERT INTO "${service}".outbox_event (id, topic, key, value) VALUES ($1, 't', 'k', '{}')`,
        [eventId],
      );
      await pool.query(
        `INSERT INTO "${service}".processed_event (consumer, event_id) VALUES ('c', $1)`,
        [eventId],
      );
      const before = await pool.query(
        `SELECT checksum FROM "${service}"._prisma_migrations WHERE migration_name = $1`,
        [INIT[service]],
      );

      const applied = await migrate({
        pool,
        schema: service,
        migrationsDirs: [OUTBOX_MIGRATIONS_DIR, current(service)],
        logger,
      });

      expect(applied[0]).toBe('20261124000000_bus_outbox');
      expect(applied).not.toContain(INIT[service]);
      const outbox = await pool.query(`SELECT id FROM "${service}".outbox_event`);
      expect(outbox.rows).toEqual([{ id: eventId }]);
      const processed = await pool.query(`SELECT event_id FROM "${service}".processed_event`);
      expect(processed.rows).toEqual([{ event_id: eventId }]);
      // The history keeps what was applied then; nothing is rewritten.
      const after = await pool.query(
        `SELECT checksum FROM "${service}"._prisma_migrations WHERE migration_name = $1`,
        [INIT[service]],
      );
      expect(after.rows).toEqual(before.rows);
      // Every recorded migration is one the release knows: no "unknown migrations" warning.
      expect(lines.filter((line) => line.level === 'warn')).toEqual([]);
      expect(
        await migrate({
          pool,
          schema: service,
          migrationsDirs: [OUTBOX_MIGRATIONS_DIR, current(service)],
          logger,
        }),
      ).toEqual([]);
    });

    it('when a fresh database is migrated by the new release, then its outbox tables are the ones the old release made', async () => {
      const { logger } = recordingLogger();
      await migrate({
        pool: fresh.pool,
        schema: service,
        migrationsDirs: [OUTBOX_MIGRATIONS_DIR, current(service)],
        logger,
      });
      const made = await outboxShape(fresh.pool, service);
      expect(made.columns.length).toBeGreaterThan(0);
      expect(made).toEqual(await outboxShape(existing.pool, service));
    });
  },
);
