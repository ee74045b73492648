import { fileURLToPath } from 'node:url';
import { OUTBOX_MIGRATIONS_DIR } from '@msg/bus';
import { Topics } from '@msg/contracts';
import { createPrismaClient } from '@msg/db';
import { createPostgresIdempotencyStore, IDEMPOTENCY_MIGRATIONS_DIR } from '@msg/http';
import { OPT_OUT_MIGRATIONS_DIR, optOutsConsumer, startOptOutReplica } from '@msg/optout';
import { defineService, type ServiceDependencies, startWithBackground } from '@msg/service-kit';
import { ADMIN_SCHEMA, createAccounts } from './accounts/accounts.js';
import { startDebitPurge } from './accounts/debit-retention.js';
import { createDebits } from './accounts/debits.js';
import { createApp } from './app.js';
import { type AdminConfig, loadAdminConfig } from './config.js';
import { PrismaClient } from './generated/prisma/client.js';
import { createOptOuts } from './opt-outs/opt-outs.js';
import { createProtectedSenders } from './protected-senders/protected-senders.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('../prisma/migrations', import.meta.url));

/**
 * The admin service: schema "admin" and its compacted topics before it serves; once it listens,
 * the outbox relay that publishes account states (accounts.v1), operators' opt-out edits
 * (optouts.v1) and the protected sender names (senders.protected.v1). It follows optouts.v1 into admin.opt_out, so the operators' list also holds the
 * stop words other services saw in inbound SMS.
 */
export const adminService = defineService({
  name: 'admin',
  loadConfig: loadAdminConfig,
  database: {
    schema: ADMIN_SCHEMA,
    migrations: [
      OUTBOX_MIGRATIONS_DIR,
      IDEMPOTENCY_MIGRATIONS_DIR,
      OPT_OUT_MIGRATIONS_DIR,
      MIGRATIONS_DIR,
    ],
  },
  publishes: [Topics.accounts, Topics.optOuts, Topics.protectedSenders],
  consumes: [optOutsConsumer(ADMIN_SCHEMA)],
  async start(config: AdminConfig, kit) {
    const prisma = createPrismaClient(PrismaClient, kit.pool);
    kit.onStop('prisma', () => prisma.$disconnect());
    kit.outboxRelay();
    kit.afterListen('debit-purge', () =>
      startDebitPurge(kit.pool, {
        retentionMs: config.DEBIT_RETENTION,
        everyMs: 3_600_000,
        onError: (err) => kit.logger.warn('debit purge failed; next hour again', { err }),
      }),
    );
    kit.afterListen('opt-out-replica', async () => {
      const replica = await startOptOutReplica({
        bus: kit.bus,
        sql: kit.pool,
        schema: ADMIN_SCHEMA,
        groupId: optOutsConsumer(ADMIN_SCHEMA).group,
      });
      return () => replica.stop();
    });
    const app = createApp({
      accounts: createAccounts({ prisma }),
      optOuts: createOptOuts({ prisma }),
      protectedSenders: createProtectedSenders({ prisma }),
      adminToken: config.ADMIN_TOKEN,
      debits: createDebits({ prisma }),
      billingToken: config.BILLING_INTERNAL_TOKEN,
      idempotencyStore: createPostgresIdempotencyStore({ pool: kit.pool, schema: ADMIN_SCHEMA }),
      http: kit.http,
      clientUrls: {
        allowPrivateTargets: config.CALLBACK_ALLOW_PRIVATE_TARGETS,
        allowedHosts: config.CALLBACK_ALLOWED_HOSTS ?? [],
      },
    });
    return { app };
  },
});

/** The whole service, relay included, without listening (component tests). */
export const startAdmin = (config: AdminConfig, dependencies: ServiceDependencies) =>
  startWithBackground(adminService, config, dependencies);
