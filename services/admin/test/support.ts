import { verifySecret } from '@msg/auth';
import { createInProcessBus } from '@msg/bus';
import {
  type AccountState,
  type EventEnvelope,
  type OptOutChange,
  type ProtectedSenders,
  Topics,
} from '@msg/contracts';
import { createPool, startEmbeddedPostgres } from '@msg/db';
import { createLogger } from '@msg/logger';
import { loadAdminConfig } from '../src/config.js';
import { startAdmin } from '../src/service.js';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';
export const BILLING_TOKEN = 'test-billing-token-0123456789';

/**
 * The admin service on embedded Postgres and the in-process bus, with a consumer recording every
 * account state it publishes on accounts.v1.
 */
export async function startTestAdmin() {
  const logger = createLogger({ service: 'admin-test', level: 'error' });
  const database = await startEmbeddedPostgres({});
  const pool = createPool({ url: database.url, ...database.poolOptions });
  const bus = createInProcessBus({ logger });
  const config = { ADMIN_TOKEN, BILLING_INTERNAL_TOKEN: BILLING_TOKEN, LOG_LEVEL: 'error' };
  const admin = await startAdmin(loadAdminConfig(config), {
    pool,
    bus,
    logger,
  });
  const published: AccountState[] = [];
  const optOuts: OptOutChange[] = [];
  const protectedLists: ProtectedSenders[] = [];
  const subscription = await bus.subscribe({
    groupId: 'admin-test-recorder',
    topics: [Topics.accounts, Topics.optOuts, Topics.protectedSenders],
    fromBeginning: true,
    handler: async (message) => {
      if (message.topic === Topics.optOuts) {
        optOuts.push((message.value as EventEnvelope<OptOutChange>).payload);
      } else if (message.topic === Topics.protectedSenders) {
        protectedLists.push((message.value as EventEnvelope<ProtectedSenders>).payload);
      } else {
        published.push((message.value as EventEnvelope<AccountState>).payload);
      }
    },
  });

  /** The last state published for an account, once its version reaches `version`. */
  async function publishedState(id: string, version: number): Promise<AccountState> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const state = published.filter((s) => s.id === id).at(-1);
      if (state && state.version >= version) return state;
      if (Date.now() > deadline) throw new Error(`no state v${version} published for ${id}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  return {
    app: admin.app,
    bus,
    /** The service's database, for what a compacted topic's reader cannot see (superseded events). */
    pool,
    published,
    /** Every optouts.v1 change seen, admin's own included. */
    optOuts,
    /** Every list published on senders.protected.v1, in order. */
    protectedLists,
    publishedState,
    verifySecret,
    async stop() {
      await subscription.stop();
      await admin.stop();
      await bus.close();
      await pool.end();
      await database.stop();
    },
  };
}
