import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { migrate } from '../src/migrate/migrate.js';
import { describeOnEachBackend } from './support/test-database.js';
import { testLogger } from './support/test-logger.js';

const serviceMigrations = (service: string) =>
  fileURLToPath(new URL(`../../../services/${service}/prisma/migrations`, import.meta.url));

/** @msg/bus's outbox migrations, which every service with an outbox applies before its own. */
const outboxMigrations = fileURLToPath(new URL('../../bus/migrations', import.meta.url));

/** The migration folders of a folder, in the order migrate() applies them. */
const foldersIn = (dir: string) =>
  readdirSync(dir)
    .filter((name) => /^\d{14}_/.test(name))
    .sort();

/** What migrate() applies for a service: the outbox's migrations, then the service's own. */
const migrationFolders = (service: string) => [
  ...foldersIn(outboxMigrations),
  ...foldersIn(serviceMigrations(service)),
];

describeOnEachBackend("the services' migrations", (db) => {
  const { logger } = testLogger();
  const migrateService = (service: 'admin' | 'batch') =>
    migrate({
      pool: db.pool,
      schema: service,
      migrationsDirs: [outboxMigrations, serviceMigrations(service)],
      logger,
    });

  afterAll(async () => {
    await db.pool.query('DROP SCHEMA IF EXISTS admin CASCADE; DROP SCHEMA IF EXISTS batch CASCADE');
  });

  it('when admin and batch migrate into one database, then each applies its migrations once', async () => {
    expect(await migrateService('admin')).toEqual(migrationFolders('admin'));
    expect(await migrateService('batch')).toEqual(migrationFolders('batch'));
    expect(foldersIn(serviceMigrations('batch'))[0]).toMatch(/^\d{14}_init$/);
    expect(await migrateService('admin')).toEqual([]);
    expect(await migrateService('batch')).toEqual([]);
  });

  it('when an account is created with defaults, then the columns hold the documented defaults', async () => {
    const { rows } = await db.pool.query(
      `INSERT INTO admin.account (name, name_key) VALUES ('Alice', 'alice')
       RETURNING status, permissions, number_scopes, reply_path_method, rate_limit_per_second,
                 rate_limit_burst, sms_throughput_per_second, ip_allow_list, sender_ids, version,
                 password_hash, created_at, updated_at, id`,
    );
    expect(rows[0]).toMatchObject({
      status: 'active',
      permissions: [],
      number_scopes: [],
      reply_path_method: 'POST',
      rate_limit_per_second: 10,
      rate_limit_burst: 20,
      sms_throughput_per_second: 100,
      ip_allow_list: [],
      sender_ids: [],
      version: 1,
      password_hash: null,
      created_at: expect.any(Date),
      updated_at: expect.any(Date),
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
  });

  it('when a second account has the same name in other case, then name_key refuses it', async () => {
    await expect(
      db.pool.query(`INSERT INTO admin.account (name, name_key) VALUES ('ALICE', 'alice')`),
    ).rejects.toMatchObject({ code: '23505', constraint: 'account_name_key_key' });
  });

  it('when an account is deleted, then its API keys go with it', async () => {
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO admin.account (name, name_key) VALUES ('Bob', 'bob') RETURNING id`,
    );
    const accountId = rows[0]?.id;
    await db.pool.query(
      `INSERT INTO admin.api_key (account_id, hash, prefix) VALUES ($1, 'h', 'ak_1')`,
      [accountId],
    );
    await db.pool.query('DELETE FROM admin.account WHERE id = $1', [accountId]);
    const { rows: keys } = await db.pool.query(
      'SELECT 1 FROM admin.api_key WHERE account_id = $1',
      [accountId],
    );
    expect(keys).toEqual([]);
  });

  it.each(['admin', 'batch'])(
    'when the %s outbox is written and claimed like @msg/bus does, then the tables fit',
    async (schema) => {
      const id = crypto.randomUUID();
      const insert = `INSERT INTO "${schema}"."outbox_event" ("id", "topic", "key", "value", "headers")
                      VALUES ($1, $2, $3, $4::jsonb, $5::jsonb) ON CONFLICT ("id") DO NOTHING`;
      const values = [id, 'accounts.v1', 'k', JSON.stringify({ id }), null];
      expect((await db.pool.query(insert, values)).rowCount).toBe(1);
      expect((await db.pool.query(insert, values)).rowCount).toBe(0);

      const { rows } = await db.pool.query(
        `SELECT seq, value, created_at FROM "${schema}"."outbox_event"
          WHERE published_at IS NULL ORDER BY seq FOR UPDATE SKIP LOCKED`,
      );
      expect(rows).toEqual([{ seq: '1', value: { id }, created_at: expect.any(Date) }]);

      const claim = `INSERT INTO "${schema}"."processed_event" ("consumer", "event_id") VALUES ($1, $2)
                     ON CONFLICT DO NOTHING`;
      expect((await db.pool.query(claim, ['c', id])).rowCount).toBe(1);
      expect((await db.pool.query(claim, ['c', id])).rowCount).toBe(0);

      const { rows: indexes } = await db.pool.query<{ indexdef: string }>(
        `SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND indexname = 'outbox_event_unpublished_idx'`,
        [schema],
      );
      expect(indexes[0]?.indexdef).toMatch(/\(seq\) WHERE \(published_at IS NULL\)$/);
    },
  );
});
