import type { AccountDirectory, ProtectedSenderDirectory } from '@msg/auth';
import type { Bus } from '@msg/bus';
import type { Env, LogLevel } from '@msg/config';
import type { KitHttpOptions, ReadinessCheck } from '@msg/http';
import type { Logger } from '@msg/logger';
import type { Express } from 'express';
import type pg from 'pg';
import type { Registry } from 'prom-client';
import type { TopicDeclarations } from './topic-declarations.js';

/** What the kit reads from every service's own settings (serviceSettings of @msg/config). */
export interface BaseServiceConfig {
  readonly PORT: number;
  readonly HOST: string;
  readonly LOG_LEVEL: LogLevel;
  /** 'test' turns on response validation (ServiceContext.http). */
  readonly NODE_ENV: 'development' | 'test' | 'production';
  /** trustSettings of @msg/config; createService's default ('loopback') when the service has none. */
  readonly TRUSTED_PROXIES?: readonly string[];
}

export interface DatabaseSpec {
  /** The service's Postgres schema; it holds all of its tables and its _prisma_migrations. */
  schema: string;
  /**
   * Prisma-format migrations folders, applied in this order into `schema`: the packages' folders
   * first (OUTBOX_MIGRATIONS_DIR of @msg/bus, ...), then the service's own prisma/migrations.
   * Wiring one more package table into a service is one more entry here.
   */
  migrations: readonly string[];
}

/** Stops something the service started; awaited at shutdown. */
export type Stop = () => Promise<void> | void;

/** What a background start returns: how to stop it, or the started thing itself (a consumer). */
export type Started = Stop | { stop: Stop };

/** What a service's start function gets from the kit, whether deployed or in the embedded suite. */
export interface ServiceContext {
  bus: Bus;
  logger: Logger;
  /** The service's metric registry (labelled with its name); createService gets it in `http`. */
  metrics: Registry;
  /**
   * /readyz checks of what requests need, filled by the kit: the database, and the account
   * directory once followed; createService gets it in `http`. The bus is not in it: a service whose
   * consumers wait for Kafka still takes requests into its outbox (their health is a metric).
   */
  readiness: ReadinessCheck[];
  /**
   * What the service's createService takes from the kit — logger, metrics, readiness (the
   * fields above), TRUSTED_PROXIES and response validation when NODE_ENV is 'test' — so that the
   * app only says what is its own: `createService({ ...http, name, openapiPath, routes })`.
   */
  http: KitHttpOptions;
  /**
   * Follows accounts.v1 (consumer group `<name>-accounts.<random>`: every replica reads every
   * account), adds its readiness and closes it at shutdown. The same directory on every call.
   */
  accountDirectory(): Promise<AccountDirectory>;
  /**
   * Follows senders.protected.v1, the operator's protected sender names (consumer group
   * `<name>-protected-senders.<random>`), adds its readiness and closes it at shutdown: what every
   * SMS path passes to checkSenderPermission of @msg/sms-text. The same directory on every call.
   */
  protectedSenders(): Promise<ProtectedSenderDirectory>;
  /**
   * Work that starts once the server listens — consumers, relays, workers — so that joining a
   * consumer group (up to a session timeout after a crash) never delays the HTTP API. Started in
   * the order registered; `start` returns the started thing (anything with `stop()`) or how to
   * stop it.
   */
  afterListen(name: string, start: () => Promise<Started> | Started): void;
  /** Something to release at shutdown (a client, a sender). */
  onStop(name: string, stop: Stop): void;
}

export interface OutboxRelaySettings {
  /** Pause between looks at an empty outbox; the relay's default when absent. */
  pollIntervalMs?: number;
  /** At shutdown, publish what is still pending (a failure is logged, not fatal). */
  drainOnStop?: boolean;
}

export interface DatabaseContext extends ServiceContext {
  pool: pg.Pool;
  /** The outbox relay of the service's schema, started after listening, stopped at shutdown. */
  outboxRelay(settings?: OutboxRelaySettings): void;
}

/** What a start function returns: at least the app (never listening; the kit listens). */
export interface ServiceParts {
  app: Express;
}

/**
 * Besides its name and settings, what the service publishes and consumes (TopicDeclarations):
 * producers and consumers both create what they use, so services start in any order.
 */
interface CommonDefinition<C extends BaseServiceConfig> extends TopicDeclarations<C> {
  /** Service name: logger, metrics label, Kafka client id, account-directory group. */
  name: string;
  /** The service's own settings (without DATABASE_URL / KAFKA_BROKERS, which the kit adds). */
  loadConfig(env: Env): C;
}

/**
 * One service, described once for both ways to run it (runService for its own process,
 * serveService for the embedded suite). Everything of a start-up that is not the service's own
 * — migrations, the declared topics, the account directory, the outbox relay, listening, readiness, shutdown
 * order — is the kit's.
 */
export type ServiceDefinition<C extends BaseServiceConfig, P extends ServiceParts> =
  | DatabaseServiceDefinition<C, P>
  | PlainServiceDefinition<C, P>;

export interface DatabaseServiceDefinition<C extends BaseServiceConfig, P extends ServiceParts>
  extends CommonDefinition<C> {
  database: DatabaseSpec;
  start(config: C, context: DatabaseContext): Promise<P>;
}

/** A service without a database of its own (the legacy lookup asks another service). */
export interface PlainServiceDefinition<C extends BaseServiceConfig, P extends ServiceParts>
  extends CommonDefinition<C> {
  database?: undefined;
  start(config: C, context: ServiceContext): Promise<P>;
}

/** Identity, so the start function's context is typed from whether there is a database. */
export function defineService<C extends BaseServiceConfig, P extends ServiceParts>(
  definition: DatabaseServiceDefinition<C, P>,
): ServiceDefinition<C, P>;
export function defineService<C extends BaseServiceConfig, P extends ServiceParts>(
  definition: PlainServiceDefinition<C, P>,
): ServiceDefinition<C, P>;
export function defineService<C extends BaseServiceConfig, P extends ServiceParts>(
  definition: ServiceDefinition<C, P>,
): ServiceDefinition<C, P> {
  return definition;
}
