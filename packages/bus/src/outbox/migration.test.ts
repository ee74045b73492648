import { describe, expect, it } from 'vitest';
import { outboxMigrationSql } from './migration.js';

describe('outboxMigrationSql', () => {
  it('when asked for a schema, then both tables are created in that schema', () => {
    const sql = outboxMigrationSql('admin');
    expect(sql).toContain('CREATE TABLE IF NOT EXISTS "admin"."outbox_event"');
    expect(sql).toContain('CREATE TABLE IF NOT EXISTS "admin"."processed_event"');
    expect(sql).toContain('PRIMARY KEY ("consumer", "event_id")');
  });

  it('when the schema name is not a plain identifier, then it is refused', () => {
    expect(() => outboxMigrationSql('admin"; DROP TABLE x; --')).toThrow(/invalid schema name/);
  });
});
