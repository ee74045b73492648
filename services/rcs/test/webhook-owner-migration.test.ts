import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrate } from '@msg/db';
import { startTestRuntime, type TestRuntime } from '@msg/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Webhooks registered before their creator was kept get an owner when the migration that adds it
 * runs: the first account allowed on the agent, whose callback secret then signs their events.
 */
const MIGRATIONS = fileURLToPath(new URL('../prisma/migrations', import.meta.url));
const OWNER_MIGRATION = '20261128101810_webhook_owner';

let runtime: TestRuntime;
let before: string;

beforeAll(async () => {
  runtime = await startTestRuntime({ service: 'rcs' });
  // The service's migrations as released before the owner was kept.
  before = await mkdtemp(join(tmpdir(), 'rcs-migrations-'));
  for (const entry of await readdir(MIGRATIONS)) {
    if (entry >= OWNER_MIGRATION) continue;
    await cp(join(MIGRATIONS, entry), join(before, entry), { recursive: true });
  }
}, 60_000);

afterAll(async () => {
  await runtime?.stop();
  if (before) await rm(before, { recursive: true, force: true });
});

describe(`migration ${OWNER_MIGRATION}`, () => {
  it("when webhooks exist from before, then each gets its agent's first account as owner, or none when the agent has no account", async () => {
    const { pool, logger } = runtime;
    await migrate({ pool, schema: 'rcs', migrationsDirs: [before], logger });
    await pool.query(
      `INSERT INTO "rcs"."agents" ("id", "display_name", "use_case")
       VALUES ('shared', 'Shared', 'TRANSACTION'), ('orphan', 'Orphan', 'TRANSACTION')`,
    );
    await pool.query(
      `INSERT INTO "rcs"."agent_accounts" ("agent_id", "account_id")
       VALUES ('shared', 'acct-b'), ('shared', 'acct-a')`,
    );
    await pool.query(
      `INSERT INTO "rcs"."webhooks" ("id", "agent_id", "webhook_url", "secret") VALUES
       ('00000000-0000-4000-8000-000000000001', 'shared', 'https://a.example/hook', 'sealed'),
       ('00000000-0000-4000-8000-000000000002', 'orphan', 'https://b.example/hook', 'sealed')`,
    );

    const applied = await migrate({ pool, schema: 'rcs', migrationsDirs: [MIGRATIONS], logger });

    expect(applied).toContain(OWNER_MIGRATION);
    const { rows } = await pool.query<{ agent_id: string; account_id: string | null }>(
      `SELECT "agent_id", "account_id" FROM "rcs"."webhooks" ORDER BY "agent_id"`,
    );
    expect(rows).toEqual([
      { agent_id: 'orphan', account_id: null },
      { agent_id: 'shared', account_id: 'acct-a' },
    ]);
  });
});
