import { fileURLToPath } from 'node:url';
import {
  basicAccountAccess,
  createAccountDirectory,
  createCredentialVerifier,
  createPostgresRateLimiter,
  RATE_LIMIT_MIGRATIONS_DIR,
} from '@msg/auth';
import { busReadiness, createOutboxRelay, type ServiceRuntime } from '@msg/bus';
import { Topics } from '@msg/contracts';
import { createPrismaClient, databaseReadiness, migrate } from '@msg/db';
import { createApp } from './app.js';
import type { SmsConfig } from './config.js';
import { PrismaClient } from './generated/prisma/client.js';
import { createMessages, SMS_SCHEMA } from './messages/messages.js';
import { startStatusConsumer } from './status/status-consumer.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('../prisma/migrations', import.meta.url));

/**
 * Prepares the SMS service: migrates schema "sms", makes sure its topics exist, follows the
 * account directory, starts the outbox relay (sms.outbound.v1, callbacks.v1) and the status
 * consumer (sms.status.v1). Returns the app to listen with and a stop function.
 */
export async function startSmsService(config: SmsConfig, { pool, bus, logger }: ServiceRuntime) {
  await migrate({ pool, schema: SMS_SCHEMA, migrationsDir: MIGRATIONS_DIR, logger });
  await migrate({ pool, schema: SMS_SCHEMA, migrationsDir: RATE_LIMIT_MIGRATIONS_DIR, logger });
  // Producers and consumers both create what they use: services start in any order.
  await bus.ensureTopics([
    { topic: Topics.smsOutbound },
    { topic: Topics.smsStatus },
    { topic: Topics.callbacks },
  ]);
  // The directory gives every instance a group of its own: every replica must see every account.
  const directory = createAccountDirectory({ bus, logger, groupId: 'sms-accounts' });
  await directory.start();
  const prisma = createPrismaClient(PrismaClient, pool);
  const relay = createOutboxRelay({ pool, schema: SMS_SCHEMA, bus, logger });
  relay.start();
  const statusConsumer = await startStatusConsumer({
    bus,
    logger,
    prisma,
    accountById: (id) => directory.byId(id),
  });
  const app = createApp({
    messages: createMessages({ prisma }),
    // 401 Basic challenge, 403 disabled / no 'sms' / outside the IP allow-list, 429 past the rate.
    basicAuth: basicAccountAccess(createCredentialVerifier({ directory }), {
      realm: 'SMS',
      permission: 'sms',
      limiter: createPostgresRateLimiter({ pool, schema: SMS_SCHEMA }),
    }),
    logger,
    readiness: [databaseReadiness(pool), busReadiness(bus), directory.readiness],
    trustProxy: config.TRUSTED_PROXIES,
    validateResponses: config.NODE_ENV === 'test',
  });
  return {
    app,
    /** Stops consuming, publishes what is pending, then lets go of the database client. */
    async stop() {
      await statusConsumer.stop();
      await relay.stop();
      await directory.close();
      await prisma.$disconnect();
    },
  };
}

export type SmsService = Awaited<ReturnType<typeof startSmsService>>;
