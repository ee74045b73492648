import {
  type AccountDirectory,
  createAccountDirectory,
  createProtectedSenderDirectory,
  type ProtectedSenderDirectory,
  type TopicFollower,
} from '@msg/auth';
import { type Bus, createOutboxRelay } from '@msg/bus';
import { databaseReadiness, migrate } from '@msg/db';
import type { ReadinessCheck } from '@msg/http';
import type { Logger } from '@msg/logger';
import type pg from 'pg';
import { Gauge, Registry } from 'prom-client';
import { declaredBus, UndeclaredTopicError } from './declared-bus.js';
import type {
  BaseServiceConfig,
  DatabaseContext,
  ServiceContext,
  ServiceDefinition,
  ServiceParts,
  Started,
} from './service-definition.js';
import { createShutdownStack } from './shutdown-stack.js';
import {
  declaredTopicSpecs,
  directoryGroup,
  KitDirectories,
  type KitDirectory,
} from './topic-declarations.js';

/** What a service runs on: its own in a deployed process, shared ones in the embedded suite. */
export interface ServiceDependencies {
  /** Required by services with a database. */
  pool?: pg.Pool;
  bus: Bus;
  logger: Logger;
  /** The service's registry; a new one labelled with the service's name when absent. */
  metrics?: Registry;
}

export type StartedService<P extends ServiceParts> = P & {
  /** Starts what was registered with afterListen, in order; the same promise on every call. */
  startBackground(): Promise<void>;
  /** Stops everything the service started, last started first (waits for startBackground). */
  stop(): Promise<void>;
};

export function serviceRegistry(name: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service: name });
  return registry;
}

/**
 * Prepares a service up to the point where it can serve requests: migrations, topics, then the
 * service's start function (which follows the account directory when its requests need
 * accounts). What it registers with afterListen is left for startBackground.
 */
export async function startService<C extends BaseServiceConfig, P extends ServiceParts>(
  definition: ServiceDefinition<C, P>,
  config: C,
  runtime: ServiceDependencies,
): Promise<StartedService<P>> {
  const { bus, logger } = runtime;
  const metrics = runtime.metrics ?? serviceRegistry(definition.name);
  const startedGauge = new Gauge({
    name: 'service_started',
    help: 'Whether the consumers, relays and workers have started (1); the HTTP API serves before',
    registers: [metrics],
  });
  const stack = createShutdownStack(logger);
  const background: { name: string; start: () => Promise<Started> | Started }[] = [];
  const readiness: ReadinessCheck[] = [];
  let directory: Promise<AccountDirectory> | undefined;
  let protectedSenders: Promise<ProtectedSenderDirectory> | undefined;
  let backgroundRun: Promise<void> | undefined;
  let stopping = false;

  // The directories follow on the kit's own bus: `follows` is their declaration, checked here.
  const serviceBus = declaredBus(bus, definition.name, definition, config);

  /** Starts following a declared directory, adds its readiness and closes it at shutdown. */
  async function follow<F extends TopicFollower>(
    directoryName: KitDirectory,
    create: () => F,
  ): Promise<F> {
    if (!definition.follows?.includes(directoryName)) {
      throw new UndeclaredTopicError(
        `${definition.name} follows ${KitDirectories[directoryName].topic}, which its service definition does not list in follows ('${directoryName}')`,
      );
    }
    const follower = create();
    stack.push(follower.readiness.name, () => follower.close());
    await follower.start();
    readiness.push(follower.readiness);
    return follower;
  }

  const context: ServiceContext = {
    bus: serviceBus,
    logger,
    metrics,
    readiness,
    http: {
      logger,
      metrics,
      readiness,
      ...(config.TRUSTED_PROXIES && { trustProxy: [...config.TRUSTED_PROXIES] }),
      validateResponses: config.NODE_ENV === 'test',
    },
    accountDirectory() {
      directory ??= follow('accounts', () =>
        createAccountDirectory({
          bus,
          logger,
          groupId: directoryGroup(definition.name, 'accounts'),
        }),
      );
      return directory;
    },
    protectedSenders() {
      protectedSenders ??= follow('protectedSenders', () =>
        createProtectedSenderDirectory({
          bus,
          logger,
          groupId: directoryGroup(definition.name, 'protectedSenders'),
        }),
      );
      return protectedSenders;
    },
    afterListen(name, start) {
      background.push({ name, start });
    },
    onStop(name, stop) {
      stack.push(name, stop);
    },
  };

  async function stop(): Promise<void> {
    stopping = true;
    // A start in flight finishes first, so what it started is stopped too.
    await backgroundRun?.catch(() => {});
    await stack.unwind();
  }

  async function ensureDeclaredTopics(): Promise<void> {
    const specs = declaredTopicSpecs(definition);
    if (specs.length > 0) await bus.ensureTopics(specs);
  }

  let parts: P;
  try {
    if (definition.database) {
      const { pool } = runtime;
      if (!pool) throw new Error(`${definition.name} needs a database and was given none`);
      const { schema, migrations } = definition.database;
      await migrate({ pool, schema, migrationsDirs: migrations, logger });
      readiness.push(databaseReadiness(pool));
      await ensureDeclaredTopics();
      const databaseContext: DatabaseContext = {
        ...context,
        pool,
        outboxRelay({ pollIntervalMs, drainOnStop = false } = {}) {
          const relay = createOutboxRelay({
            pool,
            schema,
            // What the service wrote to its outbox is published as if by the service itself.
            bus: serviceBus,
            logger,
            ...(pollIntervalMs !== undefined && { pollIntervalMs }),
          });
          context.afterListen('outbox-relay', () => {
            relay.start();
            return async () => {
              await relay.stop();
              if (!drainOnStop) return;
              await relay.drain().catch((error: unknown) => {
                logger.warn('events left in the outbox', { error: String(error) });
              });
            };
          });
        },
      };
      parts = await definition.start(config, databaseContext);
    } else {
      await ensureDeclaredTopics();
      parts = await definition.start(config, context);
    }
  } catch (error) {
    await stack.unwind().catch(() => {});
    throw error;
  }

  return Object.assign(parts, {
    startBackground() {
      backgroundRun ??= (async () => {
        for (const { name, start } of background) {
          if (stopping) return;
          const started = await start();
          stack.push(name, typeof started === 'function' ? started : () => started.stop());
        }
        startedGauge.set(1);
      })();
      return backgroundRun;
    },
    stop,
  });
}

/**
 * A service fully started — background included — without listening: what component tests
 * drive through supertest.
 */
export async function startWithBackground<C extends BaseServiceConfig, P extends ServiceParts>(
  definition: ServiceDefinition<C, P>,
  config: C,
  dependencies: ServiceDependencies,
): Promise<StartedService<P>> {
  const service = await startService(definition, config, dependencies);
  try {
    await service.startBackground();
  } catch (error) {
    await service.stop().catch(() => {});
    throw error;
  }
  return service;
}
