import { randomBytes } from 'node:crypto';
import { loadAdminConfig, startAdmin } from '@msg/admin';
import { loadBatchConfig, startBatch } from '@msg/batch';
import { type Bus, createInProcessBus, createKafkaBus } from '@msg/bus';
import { createPool, startEmbeddedPostgres } from '@msg/db';
import { loadGatewayConfig, startGateway } from '@msg/gateway';
import { startServer } from '@msg/http';
import type { Logger } from '@msg/logger';
import got from 'got';
import { type DemoAccount, republishAccounts, seedDemoAccount } from './admin-client.js';
import type { SuiteConfig } from './config.js';

const secret = (bytes = 24) => randomBytes(bytes).toString('base64url');

export interface RunningSuite {
  gatewayUrl: string;
  adminUrl: string;
  adminToken: string;
  /** Direct URLs of the services behind the gateway (for benchmarks and diagnostics). */
  serviceUrls: Record<string, string>;
  demo: DemoAccount;
  embeddedDatabase: boolean;
  inProcessBus: boolean;
  stop(): Promise<void>;
}

/**
 * Boots the whole platform in this process: the gateway, every service and the demo account.
 * Without DATABASE_URL / KAFKA_BROKERS it runs on embedded PGlite and the in-process bus; with them,
 * on real Postgres and Kafka. Services run the same code as when deployed, each on its own port.
 */
export async function startSuite(config: SuiteConfig, logger: Logger): Promise<RunningSuite> {
  const closers: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const close of closers.reverse()) {
      await close().catch((error) => logger.error('suite stop failed', { error }));
    }
  };
  try {
    const embedded = config.DATABASE_URL
      ? undefined
      : await startEmbeddedPostgres(
          config.EMBEDDED_DATA_DIR === 'memory' ? {} : { dataDir: config.EMBEDDED_DATA_DIR },
        );
    if (embedded) closers.push(embedded.stop);
    // PGlite is single-connection: in embedded mode every service shares one pool of one client.
    const pool = createPool({
      url: config.DATABASE_URL ?? embedded?.url ?? '',
      applicationName: 'suite',
      ...(embedded ? embedded.poolOptions : { max: 10 }),
    });
    closers.push(() => pool.end());
    const bus: Bus = config.KAFKA_BROKERS
      ? createKafkaBus({ brokers: config.KAFKA_BROKERS, clientId: 'suite', logger })
      : createInProcessBus({ logger });
    closers.push(() => bus.close());

    const adminToken = config.ADMIN_TOKEN ?? secret();
    const common = { LOG_LEVEL: config.LOG_LEVEL, TRUSTED_PROXIES: 'loopback' };
    const admin = await startAdmin(loadAdminConfig({ ...common, ADMIN_TOKEN: adminToken }), {
      pool,
      bus,
      logger: logger.child({ service: 'admin' }),
    });
    closers.push(admin.stop);
    const adminServer = await startServer(admin.app, {
      port: config.ADMIN_PORT,
      host: '127.0.0.1',
      logger,
    });
    closers.push(adminServer.close);

    const batch = await startBatch(
      loadBatchConfig({
        ...common,
        JWT_KEYS: config.JWT_KEYS ?? `k1:${secret(32)}`,
        // With keys supplied, the first one signs.
        JWT_ACTIVE_KID: config.JWT_KEYS?.split(':')[0] ?? 'k1',
      }),
      { pool, bus, logger: logger.child({ service: 'batch' }) },
    );
    closers.push(batch.stop);
    const batchServer = await startServer(batch.app, { port: 0, host: '127.0.0.1', logger });
    closers.push(batchServer.close);

    const gateway = await startGateway(
      loadGatewayConfig({
        PORT: String(config.PORT),
        HOST: config.HOST,
        LOG_LEVEL: config.LOG_LEVEL,
        UPSTREAM_BATCH: batchServer.url,
      }),
      { logger: logger.child({ service: 'gateway' }) },
    );
    closers.push(gateway.close);

    const demo: DemoAccount = {
      username: config.DEMO_USERNAME,
      password: config.DEMO_PASSWORD ?? secret(12),
      apiKey: config.DEMO_API_KEY ?? `demo_${secret()}`,
    };
    await waitReady([adminServer.url, batchServer.url, gateway.url], config.READY_TIMEOUT_MS);
    if (!config.KAFKA_BROKERS) await republishAccounts(adminServer.url, adminToken);
    await seedDemoAccount(adminServer.url, adminToken, demo);
    await waitForToken(gateway.url, demo, config.READY_TIMEOUT_MS);

    return {
      gatewayUrl: gateway.url,
      adminUrl: adminServer.url,
      adminToken,
      serviceUrls: { admin: adminServer.url, batch: batchServer.url },
      demo,
      embeddedDatabase: Boolean(embedded),
      inProcessBus: !config.KAFKA_BROKERS,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Waits until the demo account can get a batch token: its state has reached the batch service. */
async function waitForToken(gatewayUrl: string, demo: DemoAccount, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  const body = { client_id: demo.username, client_secret: demo.apiKey };
  for (;;) {
    const res = await got
      .post(`${gatewayUrl}/v1/oauth/token`, {
        json: body,
        throwHttpErrors: false,
        retry: { limit: 0 },
      })
      .catch(() => undefined);
    if (res?.statusCode === 200) return;
    if (Date.now() > deadline)
      throw new Error(`the demo account was not usable within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Polls each service's /readyz until all answer 200, or fails after `timeoutMs`. */
async function waitReady(urls: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (const url of urls) {
    for (;;) {
      const res = await got(`${url}/readyz`, { throwHttpErrors: false, retry: { limit: 0 } }).catch(
        () => undefined,
      );
      if (res?.statusCode === 200) break;
      if (Date.now() > deadline) throw new Error(`${url} was not ready within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}
