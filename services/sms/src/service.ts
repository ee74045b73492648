import { fileURLToPath } from 'node:url';
import {
  basicAccountAccess,
  createCredentialVerifier,
  createPostgresRateLimiter,
  RATE_LIMIT_MIGRATIONS_DIR,
} from '@msg/auth';
import { OUTBOX_MIGRATIONS_DIR } from '@msg/bus';
import { Topics } from '@msg/contracts';
import { createPrismaClient } from '@msg/db';
import { createPostgresIdempotencyStore, IDEMPOTENCY_MIGRATIONS_DIR } from '@msg/http';
import { followOptOuts, OPT_OUT_MIGRATIONS_DIR, optOutsConsumer } from '@msg/optout';
import { defineService, type ServiceDependencies, startWithBackground } from '@msg/service-kit';
import { createPrepaidBilling } from '@msg/sms-submit';
import { createApp } from './app.js';
import { loadSmsConfig, type SmsConfig } from './config.js';
import { PrismaClient } from './generated/prisma/client.js';
import { createMessages } from './messages/messages.js';
import { INBOUND_CONSUMER, startInboundOptOuts } from './opt-outs/inbound-opt-outs.js';
import { SMS_SCHEMA } from './schema.js';
import { STATUS_CONSUMER } from './status/apply-status.js';
import { startStatusConsumer } from './status/status-consumer.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('../prisma/migrations', import.meta.url));

/**
 * The SMS service: schema "sms", its topics, the account directory and the opt-out replica
 * (optouts.v1) before it serves; once it listens, the outbox relay (sms.outbound.v1, callbacks.v1,
 * optouts.v1), the status consumer (sms.status.v1) and the inbound consumer (stop and start words
 * sent back to numeric senders, sms.inbound.v1).
 */
export const smsService = defineService({
  name: 'sms',
  loadConfig: loadSmsConfig,
  database: {
    schema: SMS_SCHEMA,
    migrations: [
      OUTBOX_MIGRATIONS_DIR,
      IDEMPOTENCY_MIGRATIONS_DIR,
      RATE_LIMIT_MIGRATIONS_DIR,
      OPT_OUT_MIGRATIONS_DIR,
      MIGRATIONS_DIR,
    ],
  },
  // optouts.v1: stop and start words in inbound SMS (src/opt-outs).
  publishes: [Topics.smsOutbound, Topics.callbacks, Topics.optOuts],
  consumes: [
    { topic: Topics.smsStatus, group: STATUS_CONSUMER },
    { topic: Topics.smsInbound, group: INBOUND_CONSUMER },
    optOutsConsumer(SMS_SCHEMA),
  ],
  follows: ['accounts', 'protectedSenders'],
  async start(config: SmsConfig, kit) {
    const { pool, bus, logger } = kit;
    const directory = await kit.accountDirectory();
    // The operator's protected sender names, checked with the account's own sender ids on `from`.
    const protectedSenders = await kit.protectedSenders();
    const prisma = createPrismaClient(PrismaClient, pool);
    kit.onStop('prisma', () => prisma.$disconnect());
    // The opt-out lists, read by the intake (group sms-optouts; readiness waits for them).
    await followOptOuts(kit, SMS_SCHEMA);
    kit.outboxRelay();
    const accountById = (id: string) => directory.byId(id);
    kit.afterListen('status-consumer', () =>
      startStatusConsumer({ bus, logger, pool, accountById, metrics: kit.metrics }),
    );
    kit.afterListen('inbound-opt-outs', () =>
      startInboundOptOuts({ bus, logger, pool, accountById }),
    );
    const app = createApp({
      protectedSenders,
      messages: createMessages({
        prisma,
        pool,
        // Prepaid accounts pay per part at acceptance (402 when empty); postpaid: no call.
        billing: createPrepaidBilling({
          adminUrl: config.ADMIN_URL,
          token: config.BILLING_INTERNAL_TOKEN,
          logger,
        }),
      }),
      idempotencyStore: createPostgresIdempotencyStore({ pool, schema: SMS_SCHEMA }),
      // 401 Basic challenge, 403 disabled / no 'sms' / outside the IP allow-list, 429 past the rate.
      basicAuth: basicAccountAccess(createCredentialVerifier({ directory }), {
        realm: 'SMS',
        permission: 'sms',
        limiter: createPostgresRateLimiter({ pool, schema: SMS_SCHEMA }),
      }),
      http: kit.http,
      clientUrls: {
        allowPrivateTargets: config.CALLBACK_ALLOW_PRIVATE_TARGETS,
        allowedHosts: config.CALLBACK_ALLOWED_HOSTS ?? [],
      },
    });
    /** protectedSenders: tests wait on it after publishing a list. */
    return { app, protectedSenders };
  },
});

/** The whole service, consumers included, without listening (component tests). */
export const startSmsService = (config: SmsConfig, dependencies: ServiceDependencies) =>
  startWithBackground(smsService, config, dependencies);

export type SmsService = Awaited<ReturnType<typeof startSmsService>>;
