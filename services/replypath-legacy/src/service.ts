import {
  createCredentialVerifier,
  createPostgresRateLimiter,
  RATE_LIMIT_MIGRATIONS_DIR,
} from '@msg/auth';
import { internalApiTarget } from '@msg/config';
import { defineService, type ServiceDependencies, startWithBackground } from '@msg/service-kit';
import { legacyAccountAccess } from './access/legacy-access.js';
import { createApp } from './app.js';
import { loadReplypathLegacyConfig, type ReplypathLegacyConfig } from './config.js';
import { createReplypathClient } from './replypath/replypath-client.js';

/** Its schema holds only the shared per-account rate buckets; pool and reservations are replypath's. */
const REPLYPATH_LEGACY_SCHEMA = 'replypath_legacy';

/**
 * The legacy reply-path interface (deprecated): follows the account directory (accounts.v1) for
 * the 401s of rule 5.3 and sends through the replypath service's internal API, the one
 * implementation of pool, reservations, outbound SMS and reply forwarding. It sends no events
 * itself; its database holds only the rate buckets, shared by its replicas.
 */
export const replypathLegacyService = defineService({
  name: 'replypath-legacy',
  loadConfig: loadReplypathLegacyConfig,
  database: { schema: REPLYPATH_LEGACY_SCHEMA, migrations: [RATE_LIMIT_MIGRATIONS_DIR] },
  follows: ['accounts'],
  async start(config: ReplypathLegacyConfig, kit) {
    const directory = await kit.accountDirectory();
    const app = createApp({
      replypath: createReplypathClient({
        ...internalApiTarget('REPLYPATH', config),
        logger: kit.logger,
      }),
      access: legacyAccountAccess(
        createCredentialVerifier({ directory }),
        createPostgresRateLimiter({ pool: kit.pool, schema: REPLYPATH_LEGACY_SCHEMA }),
      ),
      http: kit.http,
      // The database and the directory, not the replypath service: its outage is answered 503
      // per request, not by leaving the pool.
    });
    /** The account directory (accounts.v1): tests wait on it. */
    return { app, accounts: directory };
  },
});

/** The whole service without listening (component tests). */
export const startReplypathLegacy = (
  config: ReplypathLegacyConfig,
  dependencies: ServiceDependencies,
) => startWithBackground(replypathLegacyService, config, dependencies);

export type ReplypathLegacyService = Awaited<ReturnType<typeof startReplypathLegacy>>;
