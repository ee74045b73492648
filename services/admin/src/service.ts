import { fileURLToPath } from 'node:url';
import { busReadiness, createOutboxRelay, type ServiceRuntime } from '@msg/bus';
import { Topics } from '@msg/contracts';
import { createPrismaClient, databaseReadiness, migrate } from '@msg/db';
import { createPostgresIdempotencyStore, IDEMPOTENCY_MIGRATIONS_DIR } from '@msg/http';
import { ADMIN_SCHEMA, createAccounts } from './accounts/accounts.js';
import { createApp } from './app.js';
import type { AdminConfig } from './config.js';
import { PrismaClient } from './generated/prisma/client.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('../prisma/migrations', import.meta.url));

/**
 * Prepares the admin service: migrates its schema, makes sure its topic exists and starts the
 * outbox relay that publishes account states. Returns the app to listen with and a stop function.
 */
export async function startAdmin(config: AdminConfig, { pool, bus, logger }: ServiceRuntime) {
  await migrate({ pool, schema: ADMIN_SCHEMA, migrationsDir: MIGRATIONS_DIR, logger });
  await migrate({ pool, schema: ADMIN_SCHEMA, migrationsDir: IDEMPOTENCY_MIGRATIONS_DIR, logger });
  await bus.ensureTopics([{ topic: Topics.accounts, compacted: true }]);
  const prisma = createPrismaClient(PrismaClient, pool);
  const relay = createOutboxRelay({ pool, schema: ADMIN_SCHEMA, bus, logger });
  relay.start();
  const app = createApp({
    accounts: createAccounts({ prisma }),
    adminToken: config.ADMIN_TOKEN,
    idempotencyStore: createPostgresIdempotencyStore({ pool, schema: ADMIN_SCHEMA }),
    logger,
    readiness: [databaseReadiness(pool), busReadiness(bus)],
    trustProxy: config.TRUSTED_PROXIES,
  });
  return {
    app,
    async stop() {
      await relay.stop();
      await prisma.$disconnect();
    },
  };
}
