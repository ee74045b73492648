import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { adminService, loadAdminConfig } from '@msg/admin';
import { batchService, loadBatchConfig } from '@msg/batch';
import { type Bus, createInProcessBus, createKafkaBus } from '@msg/bus';
import { createPool, startEmbeddedPostgres } from '@msg/db';
import { loadGatewayConfig, startGateway } from '@msg/gateway';
import { startHlrSimulator } from '@msg/hlr-simulator';
import type { Logger } from '@msg/logger';
import { loadLookupLegacyConfig, lookupLegacyService } from '@msg/lookup-legacy';
import { loadNotifierConfig, notifierService } from '@msg/notifier';
import { importSnapshotDirectory, loadNumbersConfig, numbersService } from '@msg/numbers';
import { startRbmSimulator } from '@msg/rbm-simulator';
import { loadRcsConfig, rcsService } from '@msg/rcs';
import { loadReplypathConfig, replypathService } from '@msg/replypath';
import { loadReplypathLegacyConfig, replypathLegacyService } from '@msg/replypath-legacy';
import {
  type BaseServiceConfig,
  type ServiceDefinition,
  type ServiceParts,
  serveService,
} from '@msg/service-kit';
import { startSipCallee } from '@msg/sip-callee';
import { loadSmsConfig, smsService } from '@msg/sms';
import { loadSmscConnectorConfig, smscConnectorService } from '@msg/smsc-connector';
import { startSmscSimulator } from '@msg/smsc-simulator';
import { startTranslateSimulator } from '@msg/translate-simulator';
import { deployedDependencies, loadVoiceConfig, voiceService } from '@msg/voice';
import got from 'got';
import { type DemoAccount, republishAdminTopics, seedDemoAccount } from './admin-client.js';
import type { SuiteConfig } from './config.js';
import { keptKey } from './kept-key.js';
import { checkPortsFree } from './ports.js';
import { createServiceAccountKey } from './rbm-service-account.js';
import { seedRcsAgent } from './rcs-agent.js';
import { describePool, seedReplypathPool } from './replypath-pool.js';

const secret = (bytes = 24) => randomBytes(bytes).toString('base64url');

/** The sample Swedish portability registry snapshot (infra/numbers-registry). */
const SAMPLE_REGISTRY = fileURLToPath(new URL('../../numbers-registry/sample', import.meta.url));

export interface RunningSuite {
  gatewayUrl: string;
  adminUrl: string;
  adminToken: string;
  /** Direct URLs of the services behind the gateway (for benchmarks and diagnostics). */
  serviceUrls: Record<string, string>;
  /** Control API of the SMSC simulator, when the suite runs one (no SMSC_BINDS given). */
  smscControlUrl?: string;
  /** The RBM simulator: its RBM API and /token; its control API is `${url}/control`. */
  rbmSimulatorUrl: string;
  demo: DemoAccount;
  /** The RCS agent the demo account may send as. */
  demoRcsAgentId: string;
  /** Control API of the SIP callee the voice service calls (GET /calls, PUT /rules/:number). */
  sipCalleeControlUrl: string;
  /** The LibreTranslate-compatible simulator voice translates with. */
  translateSimulatorUrl: string;
  /** The reply-path pool as seeded, folded into ranges for the start-up output. */
  replypathPool: string;
  embeddedDatabase: boolean;
  inProcessBus: boolean;
  stop(): Promise<void>;
}

export interface SuiteOptions {
  /**
   * Told each step as it begins (`pnpm start` prints them): a fresh start takes a while, and a
   * silent one looks hung.
   */
  progress?: (step: string) => void;
}

/**
 * Boots the whole platform in this process: the gateway, every service, the SMSC simulator and
 * the demo account. Without DATABASE_URL / KAFKA_BROKERS it runs on an embedded PostgreSQL server and the
 * in-process bus; with them, on real Postgres and Kafka. Services run the same code as when
 * deployed, each on its own port.
 */
export async function startSuite(
  config: SuiteConfig,
  logger: Logger,
  { progress = () => {} }: SuiteOptions = {},
): Promise<RunningSuite> {
  const closers: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const close of closers.reverse()) {
      await close().catch((error) => logger.error('suite stop failed', { error }));
    }
  };
  try {
    await checkPortsFree(config);
    progress(
      config.DATABASE_URL
        ? 'connecting to Postgres (DATABASE_URL)'
        : `starting the embedded PostgreSQL 18 (data ${
            config.EMBEDDED_DATA_DIR === 'memory'
              ? 'in a temporary directory'
              : `in ${config.EMBEDDED_DATA_DIR}`
          })`,
    );
    const embedded = config.DATABASE_URL
      ? undefined
      : await startEmbeddedPostgres(
          config.EMBEDDED_DATA_DIR === 'memory'
            ? { logger }
            : { dataDir: config.EMBEDDED_DATA_DIR, logger },
        );
    if (embedded) closers.push(embedded.stop);
    if (embedded && config.EMBEDDED_DATA_DIR !== 'memory') {
      const asked = resolve(config.EMBEDDED_DATA_DIR);
      if (embedded.dataDir !== asked) {
        progress(
          `the data of ${asked} is kept in ${embedded.dataDir} (the link ${asked} leads there)`,
        );
      }
    }
    // Every service of the suite shares one pool, embedded or not.
    const pool = createPool({
      url: config.DATABASE_URL ?? embedded?.url ?? '',
      applicationName: 'suite',
      ...(embedded ? embedded.poolOptions : { max: 10 }),
      logger,
    });
    closers.push(() => pool.end());
    const bus: Bus = config.KAFKA_BROKERS
      ? createKafkaBus({ brokers: config.KAFKA_BROKERS, clientId: 'suite', logger })
      : createInProcessBus({ logger });
    closers.push(() => bus.close());
    const common = { LOG_LEVEL: config.LOG_LEVEL, TRUSTED_PROXIES: 'loopback' };
    // The embedded suite is a developer's machine: callbacks to localhost are the point. Every
    // service that takes a callback URL (admin, batch, sms) and the notifier that delivers it
    // follow the one setting; deployed services leave it unset, which refuses private targets.
    const callbackTargets = {
      CALLBACK_ALLOW_PRIVATE_TARGETS: String(config.CALLBACK_ALLOW_PRIVATE_TARGETS),
    };
    /** Background starts (consumers, relays, workers) the suite waits for before it says ready. */
    const started: Promise<void>[] = [];

    /**
     * Starts a service the way its own process does (the service kit), on the shared pool and
     * bus, on 127.0.0.1 and a free port unless given; registers its shutdown; returns its URL.
     */
    const serve = async <C extends BaseServiceConfig, P extends ServiceParts>(
      definition: ServiceDefinition<C, P>,
      serviceConfig: C,
      port = 0,
    ) => {
      progress(`starting ${definition.name} (migrating its schema first)`);
      const service = await serveService(
        definition,
        serviceConfig,
        { pool, bus, logger: logger.child({ service: definition.name }) },
        { port, host: '127.0.0.1' },
      );
      closers.push(service.stop);
      started.push(service.started);
      return service.url;
    };

    const adminToken = config.ADMIN_TOKEN ?? secret();
    /** Bearer token of the numbers service's internal API (for the legacy lookup service). */
    const numbersInternalToken = secret();
    /** Bearer token of the reply-path service's internal send API (legacy reply-path service). */
    const replypathInternalToken = secret();
    /** Bearer token of the notifier's internal signing API (the RCS webhook test event). */
    const notifierInternalToken = secret();
    /** Bearer token of admin's billing API: the sending services debit prepaid accounts with it. */
    const billingInternalToken = secret();
    const adminUrl = await serve(
      adminService,
      loadAdminConfig({
        ...common,
        ...callbackTargets,
        ADMIN_TOKEN: adminToken,
        BILLING_INTERNAL_TOKEN: billingInternalToken,
      }),
      config.ADMIN_PORT,
    );
    const billing = { ADMIN_URL: adminUrl, BILLING_INTERNAL_TOKEN: billingInternalToken };
    const batchUrl = await serve(
      batchService,
      loadBatchConfig({
        ...common,
        ...billing,
        ...callbackTargets,
        JWT_KEYS: config.JWT_KEYS ?? `k1:${secret(32)}`,
        // With keys supplied, the first one signs.
        JWT_ACTIVE_KID: config.JWT_KEYS?.split(':')[0] ?? 'k1',
      }),
    );
    const smsUrl = await serve(
      smsService,
      loadSmsConfig({ ...common, ...billing, ...callbackTargets }),
    );
    const notifierUrl = await serve(
      notifierService,
      loadNotifierConfig({
        ...common,
        ...callbackTargets,
        CALLBACK_SECRETS_KEY: await callbackSecretsKey(config),
        NOTIFIER_INTERNAL_TOKEN: notifierInternalToken,
      }),
    );

    // Without a real SMS centre, the simulator speaks SMPP to the connector.
    let smscControlUrl: string | undefined;
    let binds = config.SMSC_BINDS;
    if (!binds) {
      progress('starting the SMSC simulator');
      const password = secret(6);
      const simulator = await startSmscSimulator({
        port: 0,
        controlPort: config.SMSC_CONTROL_PORT,
        credentials: `suite:${password}`,
        receiptDelayMs: 300,
        logger: logger.child({ service: 'smsc-simulator' }),
      });
      closers.push(simulator.close);
      smscControlUrl = simulator.controlUrl;
      binds = `smpp://suite:${password}@127.0.0.1:${simulator.port}?name=simulator&window=20&tps=1000`;
    }
    const connectorUrl = await serve(
      smscConnectorService,
      loadSmscConnectorConfig({ ...common, SMSC_BINDS: binds }),
    );

    // Number intelligence: the HLR simulator unless a real provider is given, and the sample
    // registry snapshot imported as today's (so its answers are current).
    let hlr = { url: config.HLR_URL, username: config.HLR_USERNAME, password: config.HLR_PASSWORD };
    if (!hlr.url) {
      progress('starting the HLR simulator');
      const password = secret(6);
      const simulator = await startHlrSimulator({
        credentials: `suite:${password}`,
        logger: logger.child({ service: 'hlr-simulator' }),
      });
      closers.push(simulator.close);
      hlr = { url: simulator.url, username: 'suite', password };
    }
    const numbersUrl = await serve(
      numbersService(),
      loadNumbersConfig({
        ...common,
        HLR_URL: hlr.url,
        ...(hlr.username && { HLR_USERNAME: hlr.username }),
        ...(hlr.password && { HLR_PASSWORD: hlr.password }),
        NUMBERS_INTERNAL_TOKEN: numbersInternalToken,
      }),
    );
    progress('importing the sample number registry');
    await importSnapshotDirectory(pool, SAMPLE_REGISTRY, logger.child({ service: 'numbers' }), {
      snapshotDate: new Date().toISOString().slice(0, 10),
    }).catch((error) => logger.warn('sample registry snapshot not imported', { error }));

    const lookupLegacyUrl = await serve(
      lookupLegacyService,
      loadLookupLegacyConfig({
        ...common,
        NUMBERS_URL: numbersUrl,
        NUMBERS_INTERNAL_TOKEN: numbersInternalToken,
      }),
    );

    // The pool API takes the operator's token, as the admin API does.
    const replypathUrl = await serve(
      replypathService(),
      loadReplypathConfig({
        ...common,
        ...billing,
        REPLYPATH_INTERNAL_TOKEN: replypathInternalToken,
        REPLYPATH_ADMIN_TOKEN: adminToken,
      }),
    );

    // The legacy reply-path interface (deprecated) sends through the replypath service's
    // internal API, on its internal address: same pool, reservations and callbacks.
    const replypathLegacyUrl = await serve(
      replypathLegacyService,
      loadReplypathLegacyConfig({
        ...common,
        REPLYPATH_URL: replypathUrl,
        REPLYPATH_INTERNAL_TOKEN: replypathInternalToken,
      }),
    );

    // RCS stands on the RBM simulator in place of Google's platform: it issues tokens for a
    // service account made now, which the demo agent gets as its credentials (below), and it
    // pushes user events to the gateway, signed with a client token of this run.
    progress('starting the RBM simulator');
    const rbmKey = createServiceAccountKey(config.DEMO_RCS_AGENT_ID);
    const rbmClientToken = secret(32);
    const rbm = await startRbmSimulator({
      port: config.RBM_SIMULATOR_PORT,
      serviceAccount: { clientEmail: rbmKey.client_email, key: rbmKey.private_key },
      logger: logger.child({ service: 'rbm-simulator' }),
    });
    closers.push(rbm.close);

    // RCS: the agent API takes the operator's token, as the admin API does.
    const rcsUrl = await serve(
      rcsService,
      loadRcsConfig({
        ...common,
        // The SMS fallback of a prepaid account is paid like any SMS (without it: 503, dead-lettered).
        ...billing,
        RCS_ADMIN_TOKEN: adminToken,
        RCS_RBM_BASE_URL: rbm.url,
        RCS_RBM_TOKEN_URL: rbm.tokenUrl,
        RCS_RBM_CLIENT_TOKEN: rbmClientToken,
        RCS_RATE_LIMIT_PER_MINUTE: String(config.RCS_RATE_LIMIT_PER_MINUTE),
        RCS_CREDENTIALS_KEY: config.RCS_CREDENTIALS_KEY ?? randomBytes(32).toString('hex'),
        // The webhook test operation reaches what the notifier reaches (local receivers).
        RCS_WEBHOOK_ALLOW_PRIVATE_TARGETS: String(config.CALLBACK_ALLOW_PRIVATE_TARGETS),
        // The notifier signs the webhook test event with the account's callback secret.
        NOTIFIER_URL: notifierUrl,
        NOTIFIER_INTERNAL_TOKEN: notifierInternalToken,
      }),
    );

    // Voice calls a SIP endpoint of our own that answers as a listening human unless the dialled
    // number's suffix says otherwise (infra/sip-callee), so a demo call completes out of the box;
    // what it heard is on its control API. Recordings go to a directory removed at stop.
    progress('starting the SIP callee and the translation simulator');
    const recordDir = await mkdtemp(join(tmpdir(), 'suite-sip-callee-'));
    closers.push(() => rm(recordDir, { recursive: true, force: true }));
    const callee = await startSipCallee({
      host: config.SIP_CALLEE_HOST,
      sipPort: config.SIP_CALLEE_PORT,
      controlPort: config.SIP_CALLEE_CONTROL_PORT,
      recordDir,
      logger: logger.child({ service: 'sip-callee' }),
    });
    closers.push(callee.close);
    const translate = await startTranslateSimulator({
      port: config.TRANSLATE_SIMULATOR_PORT,
      logger: logger.child({ service: 'translate-simulator' }),
    });
    closers.push(translate.close);
    // Spec defaults for reattempts and ring time: the demo behaves as deployed.
    const voiceConfig = loadVoiceConfig({
      ...common,
      VOICE_SIP_TRUNK: `sip:${callee.sipHost}:${callee.sipPort}`,
      VOICE_DEFAULT_CALLER_ID: config.VOICE_DEFAULT_CALLER_ID,
      VOICE_PROVISIONED_NUMBERS: config.DEMO_VOICE_CALLER_ID,
      VOICE_TRANSLATE_URL: translate.url,
    });
    const voiceUrl = await serve(
      voiceService(await deployedDependencies(voiceConfig)),
      voiceConfig,
    );

    // /readyz on the gateway waits for the demo account to work end to end (waitUntilUsable).
    progress('starting the gateway');
    let demoUsable = false;
    const gateway = await startGateway(
      loadGatewayConfig({
        PORT: String(config.PORT),
        HOST: config.HOST,
        LOG_LEVEL: config.LOG_LEVEL,
        UPSTREAM_BATCH: batchUrl,
        UPSTREAM_SMS: smsUrl,
        UPSTREAM_NUMBERS: numbersUrl,
        UPSTREAM_LOOKUP_LEGACY: lookupLegacyUrl,
        UPSTREAM_REPLYPATH: replypathUrl,
        UPSTREAM_REPLYPATH_LEGACY: replypathLegacyUrl,
        UPSTREAM_RCS: rcsUrl,
        UPSTREAM_VOICE: voiceUrl,
        UPSTREAM_NOTIFIER: notifierUrl,
      }),
      {
        logger: logger.child({ service: 'gateway' }),
        readiness: [{ name: 'demo-account', isReady: () => demoUsable }],
      },
    );
    closers.push(gateway.close);
    // RBM pushes reach the rcs service through the public entry, as Google's would.
    rbm.setWebhook({ url: `${gateway.url}/rcs/v1/rbm/events`, clientToken: rbmClientToken });

    const demo: DemoAccount = {
      username: config.DEMO_USERNAME,
      password: config.DEMO_PASSWORD ?? secret(12),
      apiKey: config.DEMO_API_KEY ?? `demo_${secret()}`,
      voiceCallerId: config.DEMO_VOICE_CALLER_ID,
    };
    const serviceUrls = {
      admin: adminUrl,
      batch: batchUrl,
      sms: smsUrl,
      notifier: notifierUrl,
      'smsc-connector': connectorUrl,
      numbers: numbersUrl,
      'lookup-legacy': lookupLegacyUrl,
      replypath: replypathUrl,
      'replypath-legacy': replypathLegacyUrl,
      rcs: rcsUrl,
      voice: voiceUrl,
    };
    // On a developer's machine "ready" means usable end to end: consumers included.
    progress("waiting for every service's consumers and readiness");
    await Promise.all(started);
    await waitReady(Object.values(serviceUrls), config.READY_TIMEOUT_MS);
    if (!config.KAFKA_BROKERS) await republishAdminTopics(adminUrl, adminToken);
    progress('seeding the demo account, its RCS agent and the reply-path pool');
    const demoAccount = await seedDemoAccount(adminUrl, adminToken, demo);
    await seedRcsAgent(rcsUrl, adminToken, config.DEMO_RCS_AGENT_ID, demoAccount.id, rbmKey);
    const replypathPool = describePool(await seedReplypathPool(replypathUrl, adminToken));
    progress('waiting until the demo account works through the gateway');
    await waitUntilUsable(gateway.url, demo, config.READY_TIMEOUT_MS);
    demoUsable = true;

    return {
      gatewayUrl: gateway.url,
      adminUrl,
      adminToken,
      serviceUrls,
      ...(smscControlUrl && { smscControlUrl }),
      rbmSimulatorUrl: rbm.url,
      sipCalleeControlUrl: callee.controlUrl,
      translateSimulatorUrl: translate.url,
      demo,
      demoRcsAgentId: config.DEMO_RCS_AGENT_ID,
      replypathPool,
      embeddedDatabase: Boolean(embedded),
      inProcessBus: !config.KAFKA_BROKERS,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * The key sealing the accounts' callback signing secrets: as configured; else kept beside the
 * database's files, since the secrets live as long as the database does (a database reused with
 * another key would hold secrets nobody can open: its callbacks would wait unsent).
 */
async function callbackSecretsKey(config: SuiteConfig): Promise<string> {
  if (config.CALLBACK_SECRETS_KEY) return config.CALLBACK_SECRETS_KEY;
  if (config.EMBEDDED_DATA_DIR === 'memory') return randomBytes(32).toString('hex');
  return keptKey(join(dirname(config.EMBEDDED_DATA_DIR), 'callback-secrets.key'));
}

/**
 * Waits until the demo account works through the gateway: its API key gets a batch token and its
 * password passes the sms service (an unknown message is 404, not 401). Both mean its state has
 * reached the services' account directories.
 */
async function waitUntilUsable(gatewayUrl: string, demo: DemoAccount, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  const answers = (request: Promise<{ statusCode: number }>, status: number) =>
    request.then((res) => res.statusCode === status).catch(() => false);
  const options = { throwHttpErrors: false, retry: { limit: 0 } } as const;
  for (;;) {
    const token = answers(
      got.post(`${gatewayUrl}/v1/oauth/token`, {
        ...options,
        json: { client_id: demo.username, client_secret: demo.apiKey },
      }),
      200,
    );
    const basic = answers(
      got(`${gatewayUrl}/v1/sms/00000000-0000-4000-8000-000000000000`, {
        ...options,
        username: demo.username,
        password: demo.password,
      }),
      404,
    );
    if ((await token) && (await basic)) return;
    if (Date.now() > deadline) {
      throw new Error(`the demo account was not usable within ${timeoutMs} ms`);
    }
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
