import {
  ConfigError,
  callbackTargetSettings,
  durationMs,
  envField,
  int,
  loadConfig,
  prepaidBillingSettings,
  serviceSettings,
  splitList,
  trustSettings,
  z,
} from '@msg/config';

const KEY_RING_RULE =
  'expected kid:secret pairs separated by commas, kids unique, each secret at least 32 characters';

/** "kid:secret,kid:secret" → the key ring of the JWT service; undefined when any pair is bad. */
function parseKeyRing(raw: string): { kid: string; secret: string }[] | undefined {
  const keys = splitList(raw).map((pair) => {
    const at = pair.indexOf(':');
    return { kid: pair.slice(0, at), secret: pair.slice(at + 1) };
  });
  const valid = keys.every((k) => /^[A-Za-z0-9._-]{1,64}$/.test(k.kid) && k.secret.length >= 32);
  const unique = new Set(keys.map((k) => k.kid)).size === keys.length;
  return keys.length > 0 && valid && unique ? keys : undefined;
}

export const batchSettings = z.object({
  ...serviceSettings.shape,
  ...trustSettings.shape,
  ...prepaidBillingSettings.shape,
  ...callbackTargetSettings.shape,
  JWT_ISSUER: z
    .string()
    .min(1)
    .default('messaging-platform')
    .describe('`iss` of issued access tokens.'),
  JWT_AUDIENCE: z.string().min(1).default('batch-sms').describe('`aud` of issued access tokens.'),
  JWT_KEYS: envField(KEY_RING_RULE, parseKeyRing)
    .meta({ secret: true })
    .describe(
      'Signing keys as kid:secret pairs separated by commas, e.g. "2026-11:...,2026-10:...". Older kids keep verifying until removed (rotation). Secrets at least 32 characters.',
    ),
  JWT_ACTIVE_KID: z.string().min(1).describe('The kid of JWT_KEYS that signs new tokens.'),
  JWT_TTL_SECONDS: int({ min: 60, max: 86_400, default: 3600 }).describe(
    'Lifetime of an access token in seconds (the `expires_in` of the token answer).',
  ),
  BATCH_MAX_BODY_BYTES: int({ min: 1024, max: 1_073_741_824, default: 32 * 1024 * 1024 }).describe(
    'Largest compressed create body in bytes (specification 8.1: 32 MB); larger is 413.',
  ),
  BATCH_MAX_INFLATED_BYTES: int({
    min: 1024,
    max: 8_589_934_592,
    default: 512 * 1024 * 1024,
  }).describe(
    'Largest inflated create body in bytes; a gzip stream inflating beyond it (a decompression bomb) is 400.',
  ),
  BATCH_WORKER_INTERVAL: durationMs('250ms').describe(
    'How often each replica looks for batches to start, expand, report on and purge.',
  ),
  BATCH_CHUNK_SIZE: int({ min: 1, max: 10_000, default: 1000 }).describe(
    'Most messages expanded and queued in one transaction (fewer when the account throughput is lower).',
  ),
  BATCH_PROGRESS_INTERVAL: durationMs('2s').describe(
    'Least time between two batch.submission_progress_update events of a batch.',
  ),
  BATCH_RETENTION: durationMs('168h').describe(
    'How long a batch and its messages are kept after it ends (specification 8.1: 7 days).',
  ),
});

export type BatchConfig = z.infer<typeof batchSettings>;

/** Refuses an active kid that is not in the key ring, naming both variables. */
function checkActiveKid(config: BatchConfig): BatchConfig {
  if (!config.JWT_KEYS.some((k) => k.kid === config.JWT_ACTIVE_KID)) {
    throw new ConfigError([`JWT_ACTIVE_KID: "${config.JWT_ACTIVE_KID}" is not a kid of JWT_KEYS`]);
  }
  return config;
}

export function loadBatchConfig(env: NodeJS.ProcessEnv = process.env): BatchConfig {
  return checkActiveKid(loadConfig(batchSettings, env));
}
