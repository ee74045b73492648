import type { AccountDirectory } from '@msg/auth';
import { followOptOuts } from '@msg/optout';
import type { DatabaseContext } from '@msg/service-kit';
import { createPrepaidBilling } from '@msg/sms-submit';
import type { AgentClients } from '../rbm/agent-clients.js';
import { RCS_SCHEMA } from '../schema.js';
import type { FallbackSettings } from './config.js';
import { createSmsFallback } from './sms-fallback.js';
import { startSmsStatusConsumer } from './sms-status.js';
import { createTtlSweeper } from './ttl-sweeper.js';

/**
 * The SMS fallback and TTL expiry: the opt-out replica and the operator's protected sender names
 * (before the service serves: readiness waits for both), the fallback sender (for the delivery
 * worker and the sweeper), and once listening the consumer of the fallback SMS's reports and the
 * TTL sweeper.
 */
export async function startFallback(
  settings: FallbackSettings,
  kit: DatabaseContext,
  deps: { directory: Pick<AccountDirectory, 'byId'>; rbm: AgentClients },
) {
  await followOptOuts(kit, RCS_SCHEMA);
  const protectedSenders = await kit.protectedSenders();
  const smsFallback = createSmsFallback({
    pool: kit.pool,
    accountById: (id) => deps.directory.byId(id),
    protectedNames: () => protectedSenders.names(),
    billing: createPrepaidBilling({
      adminUrl: settings.ADMIN_URL,
      token: settings.BILLING_INTERNAL_TOKEN,
      logger: kit.logger,
    }),
    logger: kit.logger,
  });
  const ttlSweeper = createTtlSweeper({
    pool: kit.pool,
    rbm: deps.rbm,
    smsFallback,
    intervalMs: settings.RCS_TTL_SWEEP_INTERVAL,
    logger: kit.logger,
  });
  kit.afterListen('rcs-sms-status', () =>
    startSmsStatusConsumer({
      bus: kit.bus,
      pool: kit.pool,
      logger: kit.logger,
      groupId: settings.RCS_SMS_STATUS_CONSUMER_GROUP,
    }),
  );
  kit.afterListen('rcs-ttl-sweeper', () => ttlSweeper.start());
  return { smsFallback, ttlSweeper, protectedSenders };
}
