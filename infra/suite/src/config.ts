import { bool, csv, int, loadConfig, logLevel, port, z } from '@msg/config';
import { E164_PATTERN } from '@msg/phone/e164';

/** Settings of the all-in-one embedded suite (`pnpm start`). Every one is optional. */
export const suiteSettings = z.object({
  PORT: port(8080).describe('Port of the gateway, the public entry.'),
  HOST: z.string().default('127.0.0.1').describe('Address the gateway listens on.'),
  ADMIN_PORT: port(8081).describe('Port of the internal admin API (for `pnpm admin ...`).'),
  ADMIN_TOKEN: z
    .string()
    .min(16)
    .optional()
    .describe('Operator token of the admin API; a random one is generated and printed when unset.'),
  DATABASE_URL: z
    .url()
    .optional()
    .describe('Real Postgres to use instead of the embedded PostgreSQL server.'),
  EMBEDDED_DATA_DIR: z
    .string()
    .default('.data/postgres')
    .describe(
      'Where the embedded PostgreSQL keeps its files; "memory" uses a temporary directory removed at stop.',
    ),
  KAFKA_BROKERS: csv()
    .optional()
    .describe('Real Kafka brokers to use instead of the in-process bus.'),
  DEMO_USERNAME: z.string().default('demo').describe('Name of the seeded demo account.'),
  DEMO_PASSWORD: z
    .string()
    .min(8)
    .optional()
    .describe('Password of the demo account; generated and printed when unset.'),
  DEMO_API_KEY: z
    .string()
    .min(16)
    .optional()
    .describe('API key of the demo account; generated and printed when unset.'),
  DEMO_RCS_AGENT_ID: z
    .string()
    .regex(/^[A-Za-z0-9._@-]{1,100}$/)
    .default('demo-agent')
    .describe('Id of the seeded RCS agent the demo account may send as.'),
  RCS_CREDENTIALS_KEY: z
    .string()
    .optional()
    .describe(
      "Key that encrypts RCS agents' RBM credentials (32 bytes, hex or base64); generated when unset (credentials stored by an earlier run then no longer open).",
    ),
  CALLBACK_SECRETS_KEY: z
    .string()
    .optional()
    .describe(
      "Key that seals the accounts' callback signing secrets (32 bytes, hex or base64); unset: kept in callback-secrets.key beside EMBEDDED_DATA_DIR (made on first start), or a new one per run with EMBEDDED_DATA_DIR=memory.",
    ),
  RCS_RATE_LIMIT_PER_MINUTE: int({ min: 1, max: 1_000_000, default: 100 }).describe(
    'Requests per minute per RCS client (spec 8.4: 100); benchmarks lift it.',
  ),
  RBM_SIMULATOR_PORT: port(0).describe(
    'Port of the RBM simulator (its RBM API, /token and the /control API); 0 picks a free one.',
  ),
  SIP_CALLEE_HOST: z
    .ipv4()
    .default('127.0.0.2')
    .describe(
      "Loopback address of the SIP callee (SIP, RTP, control API). Not voice's own 127.0.0.1: the SIP stack cannot send an INVITE to its own address (macOS: `sudo ifconfig lo0 alias 127.0.0.2`).",
    ),
  SIP_CALLEE_PORT: port(0).describe(
    'SIP (UDP) port of the SIP callee the voice service calls (infra/sip-callee); 0 picks a free one.',
  ),
  SIP_CALLEE_CONTROL_PORT: port(0).describe(
    'Port of the SIP callee control API (GET /calls, PUT /rules/:number); 0 picks a free one.',
  ),
  TRANSLATE_SIMULATOR_PORT: port(0).describe(
    'Port of the translation API simulator (LibreTranslate-compatible) voice translates with; 0 picks a free one.',
  ),
  VOICE_DEFAULT_CALLER_ID: z
    .string()
    .regex(E164_PATTERN)
    .default('+46701740690')
    .describe(
      "The voice service's own caller ID (spec 2.6 rule 3); a PTS fiction number by default.",
    ),
  DEMO_VOICE_CALLER_ID: z
    .string()
    .regex(E164_PATTERN)
    .default('+46701740691')
    .describe(
      "The demo account's registered voice caller ID and default sender, provisioned for Swedish destinations.",
    ),
  JWT_KEYS: z
    .string()
    .optional()
    .describe('Token signing keys (kid:secret,...); generated when unset.'),
  SMSC_BINDS: z
    .string()
    .optional()
    .describe(
      'Real SMS centres (smpp:// URLs, see services/smsc-connector); the simulator when unset.',
    ),
  SMSC_CONTROL_PORT: port(2776).describe(
    'Port of the SMSC simulator control API (inbound SMS, rules).',
  ),
  HLR_URL: z
    .url()
    .optional()
    .describe('Real HLR provider API for number live status; the HLR simulator when unset.'),
  HLR_USERNAME: z.string().optional().describe('HTTP Basic user at the real HLR provider.'),
  HLR_PASSWORD: z.string().optional().describe('HTTP Basic password at the real HLR provider.'),
  CALLBACK_ALLOW_PRIVATE_TARGETS: bool(true).describe(
    'Accept callback and webhook URLs to localhost and private addresses, and deliver to them (on by default on a developer machine; deployed services default to off).',
  ),
  LOG_LEVEL: logLevel('warn'),
  READY_TIMEOUT_MS: int({ min: 1000, max: 600_000, default: 60_000 }).describe(
    'How long start-up waits for every service to be ready.',
  ),
});

export type SuiteConfig = z.infer<typeof suiteSettings>;

export function loadSuiteConfig(env: NodeJS.ProcessEnv = process.env): SuiteConfig {
  return loadConfig(suiteSettings, env);
}
