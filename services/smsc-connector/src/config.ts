import {
  durationMs,
  envField,
  int,
  loadConfig,
  serviceSettings,
  splitList,
  trustSettings,
  z,
} from '@msg/config';

/** One SMS centre to bind to, parsed from an `smpp://` URL of SMSC_BINDS. */
export interface BindSettings {
  /** Label on metrics and logs; never the password. */
  name: string;
  host: string;
  port: number;
  systemId: string;
  password: string;
  systemType: string;
  /** Most submit_sm awaiting their response on this bind at once. */
  window: number;
  /** SMS parts per second this bind may submit. */
  tps: number;
}

const BINDS_RULE =
  'expected comma-separated smpp://system_id:password@host:port?system_type=&window=&tps=&name= URLs';

function positiveInt(raw: string | null, fallback: number): number | undefined {
  if (raw === null) return fallback;
  return /^\d+$/.test(raw) && Number(raw) > 0 ? Number(raw) : undefined;
}

/** Parses one bind URL; undefined when anything is off (the rule then names the format). */
export function parseBindUrl(raw: string, index: number): BindSettings | undefined {
  if (!URL.canParse(raw)) return undefined;
  const url = new URL(raw);
  if (url.protocol !== 'smpp:' || !url.hostname || !url.username) return undefined;
  const window = positiveInt(url.searchParams.get('window'), 10);
  const tps = positiveInt(url.searchParams.get('tps'), 200);
  if (window === undefined || tps === undefined) return undefined;
  return {
    name: url.searchParams.get('name') ?? `bind${index + 1}`,
    host: url.hostname,
    port: url.port ? Number(url.port) : 2775,
    systemId: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    systemType: url.searchParams.get('system_type') ?? '',
    window,
    tps,
  };
}

function parseBinds(raw: string): BindSettings[] | undefined {
  const binds = splitList(raw).map(parseBindUrl);
  if (binds.length === 0) return undefined;
  const parsed = binds.filter((bind): bind is BindSettings => bind !== undefined);
  if (parsed.length !== binds.length) return undefined;
  // Names label metrics; two binds with one name would hide each other.
  return new Set(parsed.map((bind) => bind.name)).size === parsed.length ? parsed : undefined;
}

export const smscConnectorSettings = z.object({
  ...serviceSettings.shape,
  ...trustSettings.shape,
  // Marked secret: the URLs carry the bind passwords, so no default and never printed.
  SMSC_BINDS: envField(BINDS_RULE, parseBinds)
    .meta({ secret: true })
    .describe(
      'SMS centres to bind to as transceiver: comma-separated smpp://system_id:password@host:port?system_type=X&window=10&tps=200&name=a',
    ),
  SMPP_ENQUIRE_LINK_MS: durationMs(30_000).describe(
    'Pause between enquire_link on an idle bound session (keeps NAT and the SMSC from dropping it).',
  ),
  SMPP_RECONNECT_MIN_MS: durationMs(500).describe('First delay before re-binding a lost bind.'),
  SMPP_RECONNECT_MAX_MS: durationMs(30_000).describe(
    'Longest delay between bind attempts (doubling with jitter up to it).',
  ),
  SMPP_RESPONSE_TIMEOUT_MS: durationMs(10_000).describe(
    'How long a submit_sm, bind or enquire_link waits for its response before the session is dropped.',
  ),
  DEFAULT_ACCOUNT_TPS: int({ min: 1, max: 100_000, default: 100 }).describe(
    'SMS parts per second an account may submit when its outbound event names no throughput.',
  ),
  SUBMIT_CONCURRENCY: int({ min: 1, max: 10_000, default: 256 }).describe(
    'Outbound events of one partition handled at once (different accounts in parallel).',
  ),
  THROTTLE_BACKOFF_MS: durationMs(200).describe(
    'First pause after ESME_RTHROTTLED / ESME_RMSGQFUL; doubles up to 5 s while the SMSC keeps refusing.',
  ),
  OUTBOX_POLL_MS: int({ min: 10, max: 60_000, default: 250 }).describe(
    'Pause between looks for unpublished status and inbound events, in milliseconds.',
  ),
  SMS_DEFAULT_VALIDITY_MINUTES: int({ min: 1, max: 100_000, default: 2880 }).describe(
    'Validity assumed for a message whose event names none (the SMSC applies its own default; 48 h is common): its receipt is awaited that long plus RECEIPT_GRACE_MINUTES.',
  ),
  RECEIPT_GRACE_MINUTES: int({ min: 0, max: 100_000, default: 60 }).describe(
    'Minutes after the end of validity before a message still without its receipt is published as expired.',
  ),
  EXPIRY_SWEEP_MS: durationMs(30_000).describe(
    'Pause between looks for submitted messages whose receipt deadline passed.',
  ),
  SMSC_CONSUMER_GROUP: z
    .string()
    .min(1)
    .default('smsc-connector')
    .describe('Kafka consumer group reading sms.outbound.v1 (one per environment).'),
});

export type SmscConnectorConfig = z.infer<typeof smscConnectorSettings>;

export function loadSmscConnectorConfig(env: NodeJS.ProcessEnv = process.env): SmscConnectorConfig {
  return loadConfig(smscConnectorSettings, env);
}
