import { fileURLToPath } from 'node:url';
import {
  basicAccountAccess,
  createCredentialVerifier,
  createPostgresRateLimiter,
  RATE_LIMIT_MIGRATIONS_DIR,
  requireServiceToken,
} from '@msg/auth';
import { OUTBOX_MIGRATIONS_DIR } from '@msg/bus';
import { Topics } from '@msg/contracts';
import { createPostgresIdempotencyStore, IDEMPOTENCY_MIGRATIONS_DIR } from '@msg/http';
import { followOptOuts, OPT_OUT_MIGRATIONS_DIR, optOutsConsumer } from '@msg/optout';
import { defineService, type ServiceDependencies, startWithBackground } from '@msg/service-kit';
import { createPrepaidBilling } from '@msg/sms-submit';
import { createApp } from './app.js';
import { loadReplypathConfig, type ReplypathConfig } from './config.js';
import { cappedRateLimiter } from './http/capped-rate.js';
import { createSender } from './messages/sender.js';
import { createPoolStore } from './pool/pool-store.js';
import { honourStopWordsInReplies } from './replies/opt-out-hook.js';
import { INBOUND_CONSUMER } from './replies/receive-inbound.js';
import { startInboundSide } from './replies/start-inbound.js';
import { STATUS_CONSUMER } from './reports/status-consumer.js';
import { REPLYPATH_SCHEMA } from './schema.js';

/**
 * What the schema is made of: the outbox (@msg/bus), the rate buckets (@msg/auth), the
 * Idempotency-Key records (@msg/http), the opt-out replica (@msg/optout), its tables.
 */
export const REPLYPATH_MIGRATIONS = [
  OUTBOX_MIGRATIONS_DIR,
  RATE_LIMIT_MIGRATIONS_DIR,
  IDEMPOTENCY_MIGRATIONS_DIR,
  // The opt-out replica: sends to opted-out recipients are refused (src/messages/opted-out.ts),
  // stop words in replies are applied to it (src/replies/opt-out-hook.ts).
  OPT_OUT_MIGRATIONS_DIR,
  fileURLToPath(new URL('../prisma/migrations', import.meta.url)),
];

export interface ReplypathServiceOptions {
  /** The clock of allocations and reply windows; tests inject one. */
  now?: () => Date;
}

/**
 * The reply-path service: schema "replypath", the account directory and the opt-out replica
 * (optouts.v1) before it serves; once it listens, the outbox relay (sms.outbound.v1,
 * callbacks.v1, optouts.v1) and the inbound side (replies, delivery reports, expiry).
 */
export function replypathService(options: ReplypathServiceOptions = {}) {
  return defineService({
    name: 'replypath',
    loadConfig: loadReplypathConfig,
    database: { schema: REPLYPATH_SCHEMA, migrations: REPLYPATH_MIGRATIONS },
    // optouts.v1: stop words in replies (src/replies/opt-out-hook.ts).
    publishes: [Topics.smsOutbound, Topics.callbacks, Topics.optOuts],
    consumes: [
      { topic: Topics.smsInbound, group: INBOUND_CONSUMER },
      { topic: Topics.smsStatus, group: STATUS_CONSUMER },
      optOutsConsumer(REPLYPATH_SCHEMA),
    ],
    follows: ['accounts'],
    async start(config: ReplypathConfig, kit) {
      const directory = await kit.accountDirectory();
      // The opt-out lists the send path refuses by (group replypath-optouts; readiness waits).
      await followOptOuts(kit, REPLYPATH_SCHEMA);
      kit.outboxRelay();
      const now = options.now ?? (() => new Date());
      // Replies, delivery reports and expiry (src/replies, src/reports).
      kit.afterListen('replypath-inbound', () =>
        startInboundSide({
          ...kit,
          accountById: (id) => directory.byId(id),
          quarantineMs: config.REPLYPATH_QUARANTINE,
          sweepIntervalMs: config.REPLYPATH_SWEEP_INTERVAL,
          onStopWord: honourStopWordsInReplies((id) => directory.byId(id)),
          now,
        }),
      );
      const app = createApp({
        sender: createSender({
          pool: kit.pool,
          // Prepaid accounts pay per part at acceptance (403 INSUFFICIENT_FUNDS); postpaid: no call.
          billing: createPrepaidBilling({
            adminUrl: config.ADMIN_URL,
            token: config.BILLING_INTERNAL_TOKEN,
            logger: kit.logger,
          }),
          quarantineMs: config.REPLYPATH_QUARANTINE,
          now,
        }),
        poolStore: createPoolStore(kit.pool, now),
        idempotencyStore: createPostgresIdempotencyStore({
          pool: kit.pool,
          schema: REPLYPATH_SCHEMA,
        }),
        accounts: directory,
        // 401 Basic challenge, 403 disabled / no 'replypath' / outside the IP allow-list, 429.
        basicAuth: basicAccountAccess(createCredentialVerifier({ directory }), {
          realm: 'Reply-path',
          permission: 'replypath',
          // The account's rate, at most 100 per second (spec 8.2).
          limiter: cappedRateLimiter(
            createPostgresRateLimiter({ pool: kit.pool, schema: REPLYPATH_SCHEMA }),
          ),
        }),
        internalBearer: requireServiceToken(config.REPLYPATH_INTERNAL_TOKEN, {
          realm: 'replypath-internal',
          message: 'Missing or invalid token',
        }),
        poolAdminBearer: requireServiceToken(config.REPLYPATH_ADMIN_TOKEN, {
          realm: 'replypath-pool',
          message: 'Missing or invalid token',
        }),
        http: kit.http,
      });
      /** The account directory (accounts.v1), for the reply handling of rp-inbound. */
      return { app, accounts: directory };
    },
  });
}

/** The whole service, background included, without listening (component tests). */
export const startReplypathService = (
  config: ReplypathConfig,
  dependencies: ServiceDependencies,
  options: ReplypathServiceOptions = {},
) => startWithBackground(replypathService(options), config, dependencies);

export type ReplypathService = Awaited<ReturnType<typeof startReplypathService>>;
