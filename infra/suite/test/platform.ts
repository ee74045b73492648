import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger } from '@msg/logger';
import { eventually } from '@msg/testing';
import got, { type Got } from 'got';
import pg from 'pg';
import { loadSuiteConfig } from '../src/config.js';
import { createServiceAccountKey } from '../src/rbm-service-account.js';
import { seedRcsAgent } from '../src/rcs-agent.js';
import { seedReplypathPool } from '../src/replypath-pool.js';
import { type RunningSuite, startSuite } from '../src/suite.js';

/** A running platform for end-to-end tests, whichever way it was started. */
export interface Platform {
  gatewayUrl: string;
  adminUrl: string;
  adminToken: string;
  /** The SMSC simulator's control API, when the platform runs one. */
  smscControlUrl?: string;
  stop(): Promise<void>;
}

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const quietLogger = () => createLogger({ service: 'e2e', level: 'error' });

/**
 * The zero-setup default: one process, embedded PostgreSQL, in-process bus (with the suite's
 * simulators: the SIP callee and the translation API for voice).
 */
export async function startEmbedded(): Promise<RunningSuite> {
  const suite = await startSuite(
    loadSuiteConfig({
      PORT: '0',
      ADMIN_PORT: '0',
      SMSC_CONTROL_PORT: '0',
      EMBEDDED_DATA_DIR: 'memory',
      LOG_LEVEL: 'error',
    }),
    quietLogger(),
  );
  return suite;
}

/** A port nothing listens on now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(),
      );
    });
  });
}

async function waitReady(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`process exited early:\n${output()}`);
    }
    const res = await got(url, {
      throwHttpErrors: false,
      retry: { limit: 0 },
      timeout: { request: 2000 },
    }).catch(() => undefined);
    if (res?.statusCode === 200 && (await backgroundStarted(url))) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} not ready in time:\n${output()}`);
}

/**
 * A service serves (and is ready) before its consumers have joined their groups; a test that
 * sends at once would race a consumer group created for the first time, which only reads what
 * arrives after it joined. So a service counts as started once the kit's service_started metric
 * says so; a process without that metric (a simulator, the gateway) once it is ready.
 */
async function backgroundStarted(readyUrl: string): Promise<boolean> {
  const metrics = await got(new URL('/metrics', readyUrl), {
    throwHttpErrors: false,
    retry: { limit: 0 },
    timeout: { request: 2000 },
  }).catch(() => undefined);
  const started = /^service_started(?:\{[^}]*\})? (\d+)/m.exec(metrics?.body ?? '');
  return started === null || started[1] === '1';
}

/** One process of a {@link ProcessGroup}: started, killed and started again on the same port. */
export interface ManagedProcess {
  readonly name: string;
  /** Its HTTP base URL (the control API for the SMSC simulator). */
  readonly url: string;
  /** Spawns it (when not running) and waits until its readiness probe answers 200. */
  start(): Promise<void>;
  /** Sends `signal` (SIGTERM by default) and resolves once the process has exited. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  running(): boolean;
}

export interface ProcessSpec {
  /** The script to run, relative to the repository root. */
  script: string;
  /** HTTP port of the process (fixed, so a restart keeps it). */
  port: number;
  env?: Record<string, string>;
  /** Readiness path; `/readyz` by default. */
  readyPath?: string;
}

/**
 * Processes on real Postgres (a fresh database, dropped by `stop()`) and real Kafka, each output
 * kept in memory (`logTail()`), for tests that kill and restart them.
 */
export interface ProcessGroup {
  databaseUrl: string;
  brokers: string;
  add(name: string, spec: ProcessSpec): ManagedProcess;
  /** The last `chars` characters of every process's output, interleaved as it arrived. */
  logTail(chars?: number): string;
  /** Stops every process (SIGTERM, SIGKILL after 15 s) and drops the database. */
  stop(): Promise<void>;
}

const LOG_KEEP = 200_000;

/** `brokers`: a Kafka of the caller's own (e.g. one it restarts); TEST_KAFKA_BROKERS otherwise. */
export async function startProcessGroup(options: { brokers?: string } = {}): Promise<ProcessGroup> {
  const adminUrlBase = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const brokers = options.brokers ?? process.env.TEST_KAFKA_BROKERS ?? '127.0.0.1:9092';
  const database = `e2e_${randomBytes(4).toString('hex')}`;
  const server = new pg.Client({ connectionString: adminUrlBase });
  await server.connect();
  await server.query(`CREATE DATABASE ${database}`);
  await server.end();
  const url = new URL(adminUrlBase);
  url.pathname = `/${database}`;
  const shared = {
    DATABASE_URL: url.toString(),
    KAFKA_BROKERS: brokers,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    // The tests' callback receivers listen on 127.0.0.1: every service that takes a callback URL
    // (admin, sms, batch) and the notifier must accept private targets, which deployed ones refuse.
    CALLBACK_ALLOW_PRIVATE_TARGETS: 'true',
    // Services keep their default TRUSTED_PROXIES (loopback: the gateway); the gateway, the edge,
    // keeps its default of trusting no client-supplied X-Forwarded-For.
  };
  let logs = '';
  const log = (text: string) => {
    logs += text;
    if (logs.length > LOG_KEEP * 2) logs = logs.slice(-LOG_KEEP);
  };
  const logTail = (chars = 4000) => logs.slice(-chars);
  const processes: ManagedProcess[] = [];

  const add = (name: string, spec: ProcessSpec): ManagedProcess => {
    let child: ChildProcess | undefined;
    const processUrl = `http://127.0.0.1:${spec.port}`;
    const running = () =>
      child !== undefined && child.exitCode === null && child.signalCode === null;
    const managed: ManagedProcess = {
      name,
      url: processUrl,
      running,
      async start() {
        if (!running()) {
          const spawned = spawn(process.execPath, [spec.script], {
            cwd: REPO,
            env: { PATH: process.env.PATH ?? '', ...shared, PORT: String(spec.port), ...spec.env },
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          spawned.stdout?.on('data', (d) => log(`[${name}] ${d}`));
          spawned.stderr?.on('data', (d) => log(`[${name}] ${d}`));
          spawned.on('exit', (code, signal) => log(`[${name}] exited: ${code ?? signal}\n`));
          child = spawned;
        }
        await waitReady(`${processUrl}${spec.readyPath ?? '/readyz'}`, child as ChildProcess, () =>
          logTail(),
        );
      },
      async kill(signal: NodeJS.Signals = 'SIGTERM') {
        const current = child;
        if (current === undefined || !running()) return;
        await new Promise<void>((resolve) => {
          current.once('exit', () => resolve());
          current.kill(signal);
          setTimeout(() => current.kill('SIGKILL'), 15_000).unref();
        });
      },
    };
    processes.push(managed);
    return managed;
  };

  const stop = async () => {
    await Promise.all(processes.map((p) => p.kill('SIGTERM')));
    const admin = new pg.Client({ connectionString: adminUrlBase });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  };
  return { databaseUrl: url.toString(), brokers, add, logTail, stop };
}

/**
 * The deployed shape: every service its own process (`node services/<name>/dist/main.js`) on real
 * Postgres (a fresh database per run) and real Kafka.
 */
export async function startProcesses(): Promise<Platform> {
  const group = await startProcessGroup();
  const adminToken = randomBytes(24).toString('base64url');
  /** Admin's billing token: sms and batch debit prepaid accounts with it. */
  const billingToken = randomBytes(24).toString('base64url');
  try {
    const [adminPort, batchPort, gatewayPort] = [
      await freePort(),
      await freePort(),
      await freePort(),
    ];
    const admin = group.add('admin', {
      script: 'services/admin/dist/main.js',
      port: adminPort,
      env: { ADMIN_TOKEN: adminToken, BILLING_INTERNAL_TOKEN: billingToken },
    });
    const batch = group.add('batch', {
      script: 'services/batch/dist/main.js',
      port: batchPort,
      env: {
        JWT_KEYS: `e2e:${randomBytes(32).toString('base64url')}`,
        JWT_ACTIVE_KID: 'e2e',
        ADMIN_URL: admin.url,
        BILLING_INTERNAL_TOKEN: billingToken,
      },
    });
    const gateway = group.add('gateway', {
      script: 'services/gateway/dist/main.js',
      port: gatewayPort,
      env: { UPSTREAM_BATCH: batch.url },
    });
    await Promise.all([admin.start(), batch.start(), gateway.start()]);
    return { gatewayUrl: gateway.url, adminUrl: admin.url, adminToken, stop: group.stop };
  } catch (error) {
    await group.stop();
    throw error;
  }
}

/** The SMS delivery path in the deployed shape, with handles to kill and restart its parts. */
export interface SmsPlatform extends Platform {
  smscControlUrl: string;
  smsc: ManagedProcess;
  connector: ManagedProcess;
  sms: ManagedProcess;
  batch: ManagedProcess;
  notifier: ManagedProcess;
  gateway: ManagedProcess;
  /** The reply-path services, when started with `replypath: true`. */
  replypath?: ManagedProcess;
  replypathLegacy?: ManagedProcess;
  logTail(chars?: number): string;
}

export interface SmsPlatformOptions {
  /** Extra settings of the smsc-connector (e.g. faster reconnects). */
  connectorEnv?: Record<string, string>;
  /** Extra settings of the SMSC simulator (e.g. RECEIPT_DELAY_MS). */
  smscEnv?: Record<string, string>;
  /** Extra settings of the batch service (e.g. a faster worker interval). */
  batchEnv?: Record<string, string>;
  /** `window` of the connector's single bind; 10 by default. */
  window?: number;
  /** Kafka to use instead of TEST_KAFKA_BROKERS. */
  brokers?: string;
  /**
   * Start the services one after another. Needed on a brand-new broker: services starting at once
   * race to create the same topics, and kafkajs' createTopics (waitForLeaders) can fail the loser
   * with "This server does not host this topic-partition", which stops its start-up.
   */
  oneByOne?: boolean;
  /**
   * Also run replypath and replypath-legacy behind the gateway, the pool seeded with the fiction
   * range as `pnpm start` seeds it (through the pool API).
   */
  replypath?: boolean;
}

/**
 * SMSC simulator, admin, sms, batch, smsc-connector, notifier and gateway (with `replypath`, also
 * replypath and replypath-legacy), each its own process on real Postgres and Kafka. The simulator's SMPP and control ports are fixed for the run, so it can be
 * killed and started again where the connector expects it; the connector's consumer group is
 * unique to the run.
 */
export async function startSmsProcesses(options: SmsPlatformOptions = {}): Promise<SmsPlatform> {
  const group = await startProcessGroup(options.brokers ? { brokers: options.brokers } : {});
  const adminToken = randomBytes(24).toString('base64url');
  /** Admin's billing token: sms and batch debit prepaid accounts with it. */
  const billingToken = randomBytes(24).toString('base64url');
  try {
    const ports: number[] = [];
    for (let i = 0; i < 8; i++) ports.push(await freePort());
    const [
      smppPort,
      controlPort,
      adminPort,
      smsPort,
      connectorPort,
      notifierPort,
      gatewayPort,
      batchPort,
    ] = ports as [number, number, number, number, number, number, number, number];
    const smsc = group.add('smsc-simulator', {
      script: 'infra/smsc-simulator/dist/main.js',
      port: controlPort,
      readyPath: '/healthz',
      env: {
        SMSC_PORT: String(smppPort),
        CONTROL_PORT: String(controlPort),
        SMSC_CREDENTIALS: 'e2e:e2epass',
        ...options.smscEnv,
      },
    });
    const admin = group.add('admin', {
      script: 'services/admin/dist/main.js',
      port: adminPort,
      env: { ADMIN_TOKEN: adminToken, BILLING_INTERNAL_TOKEN: billingToken },
    });
    const sms = group.add('sms', {
      script: 'services/sms/dist/main.js',
      port: smsPort,
      env: { ADMIN_URL: admin.url, BILLING_INTERNAL_TOKEN: billingToken },
    });
    const batch = group.add('batch', {
      script: 'services/batch/dist/main.js',
      port: batchPort,
      env: {
        JWT_KEYS: `e2e:${randomBytes(32).toString('base64url')}`,
        JWT_ACTIVE_KID: 'e2e',
        ADMIN_URL: admin.url,
        BILLING_INTERNAL_TOKEN: billingToken,
        ...options.batchEnv,
      },
    });
    const connector = group.add('smsc-connector', {
      script: 'services/smsc-connector/dist/main.js',
      port: connectorPort,
      env: {
        SMSC_BINDS: `smpp://e2e:e2epass@127.0.0.1:${smppPort}?window=${options.window ?? 10}&tps=500`,
        SMSC_CONSUMER_GROUP: `smsc-connector-e2e-${randomBytes(4).toString('hex')}`,
        ...options.connectorEnv,
      },
    });
    const notifier = addNotifier(group, notifierPort);
    const replypath = options.replypath
      ? await addReplypath(group, adminToken, {
          ADMIN_URL: admin.url,
          BILLING_INTERNAL_TOKEN: billingToken,
        })
      : undefined;
    const gateway = group.add('gateway', {
      script: 'services/gateway/dist/main.js',
      port: gatewayPort,
      env: {
        UPSTREAM_SMS: sms.url,
        UPSTREAM_BATCH: batch.url,
        UPSTREAM_NOTIFIER: notifier.url,
        ...(replypath && {
          UPSTREAM_REPLYPATH: replypath.current.url,
          UPSTREAM_REPLYPATH_LEGACY: replypath.legacy.url,
        }),
      },
    });
    await smsc.start();
    const services = [admin, sms, batch, connector, notifier, gateway];
    if (replypath) services.push(replypath.current, replypath.legacy);
    if (options.oneByOne) for (const service of services) await service.start();
    else await Promise.all(services.map((service) => service.start()));
    if (replypath) await seedReplypathPool(replypath.current.url, adminToken);
    return {
      gatewayUrl: gateway.url,
      adminUrl: admin.url,
      adminToken,
      smscControlUrl: smsc.url,
      smsc,
      connector,
      sms,
      batch,
      notifier,
      gateway,
      ...(replypath && { replypath: replypath.current, replypathLegacy: replypath.legacy }),
      logTail: group.logTail,
      stop: group.stop,
    };
  } catch (error) {
    await group.stop();
    throw error;
  }
}

/**
 * replypath (its pool API on `adminToken`, as in `pnpm start`; `billing`: admin's billing API, for
 * prepaid accounts) and the legacy interface that sends through its internal API with a token of
 * the run.
 */
async function addReplypath(
  group: ProcessGroup,
  adminToken: string,
  billing: Record<string, string>,
) {
  const internalToken = randomBytes(24).toString('base64url');
  const current = group.add('replypath', {
    script: 'services/replypath/dist/main.js',
    port: await freePort(),
    env: { ...billing, REPLYPATH_INTERNAL_TOKEN: internalToken, REPLYPATH_ADMIN_TOKEN: adminToken },
  });
  const legacy = group.add('replypath-legacy', {
    script: 'services/replypath-legacy/dist/main.js',
    port: await freePort(),
    env: { REPLYPATH_URL: current.url, REPLYPATH_INTERNAL_TOKEN: internalToken },
  });
  return { current, legacy };
}

/**
 * The platforms a reply-path end-to-end test runs on, like platform.e2e.test.ts: the embedded
 * defaults, and every service its own process on real Kafka and Postgres.
 */
export const replypathPlatforms: [string, () => Promise<Platform>][] = [
  ['embedded defaults', startEmbedded],
  [
    'real Kafka and Postgres, one process per service',
    () => startSmsProcesses({ replypath: true }),
  ],
];

/** An account created through the admin API and a client of the gateway with its password. */
export interface GatewayAccount {
  name: string;
  password: string;
  /** `Basic …` of the account. */
  basic: string;
  /** The gateway with the account's Basic credentials; answers instead of throwing on 4xx/5xx. */
  gateway: Got;
}

/**
 * Creates an account with `permissions` and `settings` (a fresh name from `prefix`) on a running
 * platform.
 */
export async function createGatewayAccount(
  platform: Platform,
  prefix: string,
  permissions: string[],
  /** More of the account (callbacks, number scopes, ...), as the admin API takes them. */
  settings: Record<string, unknown> = {},
): Promise<GatewayAccount> {
  const name = `${prefix}${Date.now().toString(36)}`;
  const password = randomBytes(12).toString('base64url');
  await got.post(`${platform.adminUrl}/internal/v1/accounts`, {
    headers: { authorization: `Bearer ${platform.adminToken}` },
    json: { ...settings, name, password, permissions },
  });
  const basic = `Basic ${Buffer.from(`${name}:${password}`).toString('base64')}`;
  const gateway = got.extend({
    prefixUrl: platform.gatewayUrl,
    headers: { authorization: basic },
    throwHttpErrors: false,
    retry: { limit: 0 },
    responseType: 'json',
  });
  return { name, password, basic, gateway };
}

/**
 * The admin process (operator token `adminToken`) and a notifier on a consumer group of its own
 * that may call local receivers: what every per-interface process platform stands on.
 */
function addAdminAndNotifier(
  group: ProcessGroup,
  adminPort: number,
  notifierPort: number,
  adminToken: string,
) {
  const admin = group.add('admin', {
    script: 'services/admin/dist/main.js',
    port: adminPort,
    env: { ADMIN_TOKEN: adminToken, BILLING_INTERNAL_TOKEN: randomBytes(24).toString('hex') },
  });
  return { admin, notifier: addNotifier(group, notifierPort) };
}

/** The notifier's internal token of the run: rcs has its webhook test event signed with it. */
const NOTIFIER_INTERNAL_TOKEN = randomBytes(24).toString('hex');

/**
 * A notifier on a consumer group of its own that may call local receivers, its accounts' signing
 * secrets sealed with a key of the run (served to the accounts through the gateway's
 * /v1/callbacks: give the gateway UPSTREAM_NOTIFIER).
 */
function addNotifier(group: ProcessGroup, port: number): ManagedProcess {
  return group.add('notifier', {
    script: 'services/notifier/dist/main.js',
    port,
    env: {
      NOTIFIER_CONSUMER_GROUP: `notifier-e2e-${randomBytes(4).toString('hex')}`,
      CALLBACK_SECRETS_KEY: randomBytes(32).toString('hex'),
      NOTIFIER_INTERNAL_TOKEN,
    },
  });
}

/** A platform the RCS end-to-end tests run on: a client that may send as an agent with credentials. */
export interface RcsPlatform extends Platform {
  /** The RBM simulator (its control API under /control). */
  rbmSimulatorUrl: string;
  /** The rcs service, direct (its operator API /internal/v1/agents takes `adminToken`). */
  rcsUrl: string;
  /** X-Client-ID and X-API-Key of an account that may send as `agentId`. */
  client: { id: string; apiKey: string };
  agentId: string;
}

/** `pnpm start`'s shape: the demo account and the demo agent, with the simulator's key. */
export async function startEmbeddedRcs(): Promise<RcsPlatform> {
  const apiKey = `demo_${randomBytes(18).toString('base64url')}`;
  const suite = await startSuite(
    loadSuiteConfig({
      PORT: '0',
      ADMIN_PORT: '0',
      SMSC_CONTROL_PORT: '0',
      EMBEDDED_DATA_DIR: 'memory',
      LOG_LEVEL: 'error',
      DEMO_API_KEY: apiKey,
      DEMO_RCS_AGENT_ID: 'e2e-agent',
    }),
    quietLogger(),
  );
  const rcsUrl = suite.serviceUrls.rcs;
  if (!rcsUrl) throw new Error('the suite runs no rcs service');
  return {
    ...suite,
    rcsUrl,
    client: { id: suite.demo.username, apiKey },
    agentId: suite.demoRcsAgentId,
  };
}

/**
 * The deployed shape of RCS: admin, notifier, rcs, the RBM simulator and the gateway, each its
 * own process on real Postgres and Kafka. As in `pnpm start`: a service-account key made now is
 * the simulator's account and, through the rcs operator API, the agent's credentials; the
 * simulator pushes to the gateway's /rcs/v1/rbm/events with a client token of the run. The
 * consumer groups are unique to the run.
 */
export async function startRcsProcesses(): Promise<RcsPlatform> {
  const group = await startProcessGroup();
  const adminToken = randomBytes(24).toString('base64url');
  const clientToken = randomBytes(24).toString('base64url');
  const agentId = 'e2e-agent';
  const key = createServiceAccountKey(agentId);
  const keyDir = await mkdtemp(join(tmpdir(), 'rbm-key-'));
  const keyFile = join(keyDir, 'service-account.json');
  await writeFile(keyFile, JSON.stringify(key), { mode: 0o600 });
  const stop = async () => {
    await group.stop();
    await rm(keyDir, { recursive: true, force: true });
  };
  try {
    const ports: number[] = [];
    for (let i = 0; i < 5; i++) ports.push(await freePort());
    const [adminPort, notifierPort, rcsPort, rbmPort, gatewayPort] = ports as [
      number,
      number,
      number,
      number,
      number,
    ];
    const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    const run = randomBytes(4).toString('hex');
    const { admin, notifier } = addAdminAndNotifier(group, adminPort, notifierPort, adminToken);
    const rbm = group.add('rbm-simulator', {
      script: 'infra/rbm-simulator/dist/main.js',
      port: rbmPort,
      readyPath: '/healthz',
      env: {
        RBM_SERVICE_ACCOUNT_FILE: keyFile,
        RBM_WEBHOOK_URL: `${gatewayUrl}/rcs/v1/rbm/events`,
        RBM_CLIENT_TOKEN: clientToken,
      },
    });
    const rcs = group.add('rcs', {
      script: 'services/rcs/dist/main.js',
      port: rcsPort,
      env: {
        RCS_ADMIN_TOKEN: adminToken,
        RCS_CREDENTIALS_KEY: randomBytes(32).toString('hex'),
        RCS_RBM_BASE_URL: `http://127.0.0.1:${rbmPort}`,
        RCS_RBM_TOKEN_URL: `http://127.0.0.1:${rbmPort}/token`,
        RCS_RBM_CLIENT_TOKEN: clientToken,
        RCS_WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        RCS_WEBHOOK_CONSUMER_GROUP: `rcs-webhooks-e2e-${run}`,
        RCS_DELIVERY_CONSUMER_GROUP: `rcs-delivery-e2e-${run}`,
        RCS_SMS_STATUS_CONSUMER_GROUP: `rcs-sms-status-e2e-${run}`,
        NOTIFIER_URL: notifier.url,
        NOTIFIER_INTERNAL_TOKEN,
      },
    });
    const gateway = group.add('gateway', {
      script: 'services/gateway/dist/main.js',
      port: gatewayPort,
      env: { UPSTREAM_RCS: rcs.url, UPSTREAM_NOTIFIER: notifier.url },
    });
    await rbm.start();
    await Promise.all([admin, notifier, rcs, gateway].map((p) => p.start()));

    // An account that may send as the agent, made as an operator makes one.
    const client = { id: `rcse2e${run}`, apiKey: `e2e_${randomBytes(18).toString('base64url')}` };
    const accounts = got.extend({
      prefixUrl: `${admin.url}/internal/v1/accounts`,
      headers: { authorization: `Bearer ${adminToken}` },
    });
    const account = await accounts
      .post('', {
        json: { name: client.id, password: randomBytes(12).toString('hex'), permissions: ['rcs'] },
      })
      .json<{ id: string }>();
    await accounts.post(`${client.id}/api-keys`, { json: { apiKey: client.apiKey } });
    await seedRcsAgent(rcs.url, adminToken, agentId, account.id, key);
    // The account reaches rcs over accounts.v1: usable once its key is no longer refused.
    await eventually(
      async () => {
        const res = await got(`${gatewayUrl}/v1/webhooks`, {
          searchParams: { agent_id: agentId },
          headers: { 'x-client-id': client.id, 'x-api-key': client.apiKey },
          throwHttpErrors: false,
          retry: { limit: 0 },
        });
        return res.statusCode === 200 ? true : undefined;
      },
      'the e2e account to reach the rcs service',
      60_000,
    );
    return {
      gatewayUrl,
      adminUrl: admin.url,
      adminToken,
      rbmSimulatorUrl: rbm.url,
      rcsUrl: rcs.url,
      client,
      agentId,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The platforms an RCS end-to-end test runs on. */
export const rcsPlatforms: [string, () => Promise<RcsPlatform>][] = [
  ['embedded defaults', startEmbeddedRcs],
  ['real Kafka and Postgres, one process per service', startRcsProcesses],
];

/** A platform the voice end-to-end tests run on: the SIP callee and the translation simulator. */
export interface VoicePlatform extends Platform {
  /** The SIP callee's control API (GET /calls). */
  sipCalleeControlUrl: string;
  /** The translation simulator voice translates with (GET /control/requests). */
  translateSimulatorUrl: string;
}

/**
 * Voice as deployed: admin, notifier, voice and the gateway as processes on real Postgres and
 * Kafka, with the SIP callee and the translation simulator as processes of their own. The callee
 * takes 127.0.0.1 and voice's SIP and RTP 127.0.0.2 (the SIP stack cannot call its own address).
 */
export async function startVoiceProcesses(): Promise<VoicePlatform> {
  const group = await startProcessGroup();
  try {
    const ports: number[] = [];
    for (let i = 0; i < 7; i++) ports.push(await freePort());
    const [adminPort, notifierPort, voicePort, gatewayPort, controlPort, sipPort, translatePort] =
      ports as [number, number, number, number, number, number, number];
    const adminToken = randomBytes(24).toString('base64url');
    const { admin, notifier } = addAdminAndNotifier(group, adminPort, notifierPort, adminToken);
    // PORT is the group's; the callee's HTTP port is CONTROL_PORT.
    const callee = group.add('sip-callee', {
      script: 'infra/sip-callee/dist/main.js',
      port: controlPort,
      readyPath: '/calls',
      env: { CONTROL_PORT: String(controlPort), SIP_PORT: String(sipPort) },
    });
    const translate = group.add('translate-simulator', {
      script: 'infra/translate-simulator/dist/main.js',
      port: translatePort,
      readyPath: '/health',
    });
    const voice = group.add('voice', {
      script: 'services/voice/dist/main.js',
      port: voicePort,
      env: {
        VOICE_SIP_TRUNK: `sip:127.0.0.1:${sipPort}`,
        VOICE_SIP_LOCAL_ADDRESS: '127.0.0.2',
        VOICE_DEFAULT_CALLER_ID: '+46701740690',
        VOICE_TRANSLATE_URL: translate.url,
      },
    });
    const gateway = group.add('gateway', {
      script: 'services/gateway/dist/main.js',
      port: gatewayPort,
      env: { UPSTREAM_VOICE: voice.url, UPSTREAM_NOTIFIER: notifier.url },
    });
    await Promise.all([callee, translate].map((p) => p.start()));
    await Promise.all([admin, notifier, voice, gateway].map((p) => p.start()));
    return {
      gatewayUrl: gateway.url,
      adminUrl: admin.url,
      adminToken,
      sipCalleeControlUrl: callee.url,
      translateSimulatorUrl: translate.url,
      stop: group.stop,
    };
  } catch (error) {
    await group.stop();
    throw error;
  }
}

/** The platforms a voice end-to-end test runs on. */
export const voicePlatforms: [string, () => Promise<VoicePlatform>][] = [
  ['embedded defaults', startEmbedded],
  ['real Kafka and Postgres, one process per service', startVoiceProcesses],
];
