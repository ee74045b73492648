import { isIP } from 'node:net';
import { z } from 'zod';
import { envField, splitList } from './env-field.js';
import { bool, csv, durationMs, enumOf, logLevel, port, secret, url } from './fields.js';

/**
 * Settings every service shares. Each fragment is a schema of its own (describeConfig and
 * loadConfig take it directly); services merge them the way zod documents, by spreading shapes:
 *   const schema = z.object({ ...serviceSettings.shape, ...databaseSettings.shape, PORT: port(3001) });
 * A later key overrides an earlier one, which is how a service picks its own default port.
 */

const HOST_RULE = 'expected a host name or IP address';
const hostName = (raw: string) => (/^[A-Za-z0-9.:%[\]-]+$/.test(raw) ? raw : undefined);

export const serviceSettings = z.object({
  PORT: port(8080).describe('TCP port the HTTP server listens on'),
  // 0.0.0.0 because services run in containers, where loopback is unreachable from outside.
  HOST: envField(HOST_RULE, hostName).prefault('0.0.0.0').describe('Address the HTTP server binds'),
  LOG_LEVEL: logLevel('info').describe('Lowest log level written'),
  // production by default so that a forgotten NODE_ENV never turns on development behaviour
  // such as stack traces in error bodies.
  NODE_ENV: enumOf(['development', 'test', 'production'], 'production').describe(
    'Runtime mode: development, test or production',
  ),
});

export const databaseSettings = z.object({
  DATABASE_URL: url({ protocols: ['postgres:', 'postgresql:'] })
    .optional()
    .describe('Postgres connection URL; unset runs an embedded PostgreSQL server'),
});

const BROKERS_RULE = 'expected a comma-separated list of host:port';
function brokerList(raw: string): string[] | undefined {
  const list = splitList(raw);
  const valid = list.every((broker) => {
    const match = /^([^\s:/]+):(\d{1,5})$/.exec(broker);
    return match !== null && Number(match[2]) >= 1 && Number(match[2]) <= 65535;
  });
  return list.length > 0 && valid ? list : undefined;
}

export const kafkaSettings = z.object({
  KAFKA_BROKERS: envField(BROKERS_RULE, brokerList)
    .optional()
    .describe(
      'Kafka bootstrap brokers as host:port, comma-separated; unset uses the in-process bus',
    ),
});

/**
 * What a service needs when it runs as its own process (the deployed shape): a real database and
 * real brokers, both required — unlike databaseSettings and kafkaSettings, where unset picks the
 * embedded stand-ins of the all-in-one suite.
 */
export const deployedDatabaseSettings = z.object({
  DATABASE_URL: url({ protocols: ['postgres:', 'postgresql:'] }).describe(
    'Postgres connection URL; the service keeps its tables in its own schema there',
  ),
});

/**
 * Consumer-group timing. A member that stops heartbeating (kill -9, a lost node) keeps its
 * partitions until its session times out, so the session bounds how long a path stalls after a
 * crash; the heartbeat must come several times per session. The broker accepts sessions between
 * its group.min.session.timeout.ms (6 s by default) and group.max.session.timeout.ms (30 min).
 */
export const kafkaConsumerSettings = z.object({
  KAFKA_SESSION_TIMEOUT: durationMs('10s').describe(
    'How long the consumer group waits for a silent member before giving its partitions to the others (at least 6s, the broker minimum)',
  ),
  KAFKA_HEARTBEAT_INTERVAL: durationMs('1s').describe(
    'How often a consumer tells the group it is alive; at most a third of KAFKA_SESSION_TIMEOUT',
  ),
});

export const deployedKafkaSettings = z.object({
  KAFKA_BROKERS: kafkaSettings.shape.KAFKA_BROKERS.unwrap().describe(
    'Kafka bootstrap brokers as host:port, comma-separated',
  ),
  ...kafkaConsumerSettings.shape,
});

// The names express understands in its "trust proxy" setting, besides addresses and ranges.
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const PROXIES_RULE =
  'expected a comma-separated list of loopback, linklocal, uniquelocal, IP addresses or CIDR ranges';

function isAddressOrRange(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

function proxyList(raw: string): string[] | undefined {
  const list = splitList(raw);
  const valid = list.every((entry) => PROXY_NAMES.has(entry) || isAddressOrRange(entry));
  return list.length > 0 && valid ? list : undefined;
}

export const trustSettings = z.object({
  TRUSTED_PROXIES: envField(PROXIES_RULE, proxyList)
    .prefault('loopback')
    .describe('Proxies whose X-Forwarded-For is believed when finding the client address'),
});

/**
 * Where a sending service (sms, batch, replypath) debits prepaid accounts: the admin service's
 * billing API. Both unset is a valid deployment without prepaid accounts: postpaid accounts never
 * call it, and a prepaid account's sends are refused as unavailable (503), never sent unpaid.
 */
export const prepaidBillingSettings = z.object({
  ADMIN_URL: url({ protocols: ['http:', 'https:'] })
    .optional()
    .describe(
      'Base URL of the admin service, whose billing API debits prepaid accounts; unset: prepaid sends are refused (503)',
    ),
  BILLING_INTERNAL_TOKEN: secret()
    .optional()
    .describe("Bearer token of the admin billing API (admin's BILLING_INTERNAL_TOKEN)"),
});

/**
 * Whether customer callback URLs may point at private addresses (loopback, RFC 1918, link-local,
 * the cloud metadata address, `localhost`). Off unless set: a callback URL is the customer's
 * choice, and calling our own network for them is SSRF. Every service that takes a callback URL
 * refuses such a host at request time (400 naming the field); the notifier refuses it again at
 * delivery, on the addresses a name resolves to. On only for development and the embedded suite.
 */
export const callbackTargetSettings = z.object({
  CALLBACK_ALLOW_PRIVATE_TARGETS: bool(false).describe(
    'Accept and deliver callback URLs to loopback, private, link-local, unique-local and multicast addresses (development only)',
  ),
  CALLBACK_ALLOWED_HOSTS: csv()
    .optional()
    .describe(
      'Host names (or IP literals) accepted and delivered to whatever they are or resolve to (trusted internal receivers)',
    ),
});

/** What a client of another service's internal API needs (internalApiTarget). */
export interface InternalApiTarget {
  baseUrl: string;
  token: string;
  timeoutMs: number;
}

/** How the settings of internalApiSettings describe the service they call. */
export interface InternalApiDescription {
  /** The service as the URL's description names it, e.g. 'number intelligence service'. */
  service: string;
  /** The internal API's path, e.g. '/internal/v1/numbers'. */
  api: string;
  /** The timeout's default (a durationMs value) and what it bounds, retries included. */
  timeout: { default: string; describe: string };
}

type InternalApiShape<N extends string> = Record<`${N}_URL`, ReturnType<typeof url>> &
  Record<`${N}_INTERNAL_TOKEN`, ReturnType<typeof secret>> &
  Record<`${N}_TIMEOUT_MS`, ReturnType<typeof durationMs>>;

/**
 * The upstream of a legacy adapter (ARCHITECTURE: a legacy interface asks the service that
 * replaced it, over that service's internal HTTP API): `<N>_URL`, `<N>_INTERNAL_TOKEN` (the
 * upstream's own token of that name) and `<N>_TIMEOUT_MS`, e.g. NUMBERS_URL for lookup-legacy.
 * Read them back with internalApiTarget.
 */
export function internalApiSettings<const N extends string>(
  name: N,
  upstream: InternalApiDescription,
) {
  const shape = {
    [`${name}_URL`]: url({ protocols: ['http:', 'https:'] }).describe(
      `Base URL of the ${upstream.service} (its ${upstream.api} API), no trailing slash`,
    ),
    [`${name}_INTERNAL_TOKEN`]: secret().describe(
      `Bearer token of the ${name.toLowerCase()} service internal API (its ${name}_INTERNAL_TOKEN)`,
    ),
    [`${name}_TIMEOUT_MS`]: durationMs(upstream.timeout.default).describe(
      upstream.timeout.describe,
    ),
  };
  // TypeScript widens computed keys to string; these are exactly the three InternalApiShape names.
  return z.object(shape as InternalApiShape<N>);
}

/** The client settings of the upstream `name` from a config holding internalApiSettings(name). */
export function internalApiTarget<const N extends string>(
  name: N,
  config: Record<`${N}_URL`, string> &
    Record<`${N}_INTERNAL_TOKEN`, string> &
    Record<`${N}_TIMEOUT_MS`, number>,
): InternalApiTarget {
  return {
    baseUrl: member<`${N}_URL`, string>(config, `${name}_URL`),
    token: member<`${N}_INTERNAL_TOKEN`, string>(config, `${name}_INTERNAL_TOKEN`),
    timeoutMs: member<`${N}_TIMEOUT_MS`, number>(config, `${name}_TIMEOUT_MS`),
  };
}

// Indexing the intersection with a generic template key loses the member's type; one record at
// a time keeps it.
const member = <K extends string, V>(record: Record<K, V>, key: K): V => record[key];
