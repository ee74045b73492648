import { secretBoxKeySetting } from '@msg/auth';
import {
  callbackTargetSettings,
  durationMs,
  int,
  loadConfig,
  secret,
  serviceSettings,
  trustSettings,
  z,
} from '@msg/config';

/** The longest a rotated secret may keep signing: the API's bound of previous_secret_expires_in. */
export const MAX_SECRET_GRACE_MS = 7 * 24 * 3_600_000;

export const notifierSettings = z.object({
  ...serviceSettings.shape,
  ...trustSettings.shape,
  CALLBACK_TIMEOUT_MS: int({ min: 100, max: 120_000, default: 10_000 }).describe(
    'Deadline of one delivery attempt in milliseconds (connect, send, wait for the answer).',
  ),
  CALLBACK_HORIZON: durationMs('24h').describe(
    'How long a callback is retried when its request names no giveUpAt; then it goes to callbacks.dlq.v1.',
  ),
  CALLBACK_RETRY_BASE: durationMs('1s').describe(
    'Upper bound of the first retry delay; each later one doubles it (full jitter).',
  ),
  CALLBACK_RETRY_MAX: durationMs('10m').describe('Longest delay between two attempts.'),
  ...callbackTargetSettings.shape,
  CALLBACK_SECRETS_KEY: secretBoxKeySetting().describe(
    "AES-256-GCM key (32 bytes, hex or base64) that encrypts the accounts' callback signing secrets at rest; required (every callback is signed)",
  ),
  CALLBACK_SECRET_GRACE: durationMs('24h')
    .refine((ms) => ms <= MAX_SECRET_GRACE_MS, 'at most 7 days (168h)')
    .describe(
      'How long a rotated signing secret keeps signing beside the new one when the rotation names no period (at most 7 days).',
    ),
  NOTIFIER_INTERNAL_TOKEN: secret()
    .optional()
    .describe(
      'Bearer token of POST /internal/v1/signatures (services that send a callback themselves: the RCS webhook test); unset: refused (401)',
    ),
  NOTIFIER_POLL_MS: int({ min: 10, max: 60_000, default: 250 }).describe(
    'Pause between looks for due callbacks (and outbox rows) when idle, in milliseconds.',
  ),
  NOTIFIER_PER_TARGET_CONCURRENCY: int({ min: 1, max: 1_000, default: 4 }).describe(
    'Requests one replica has in flight to one target (URL origin) at most.',
  ),
  NOTIFIER_CONCURRENCY: int({ min: 1, max: 10_000, default: 64 }).describe(
    'Requests one replica has in flight in total at most.',
  ),
  NOTIFIER_CONSUMER_GROUP: z
    .string()
    .min(1)
    .default('notifier')
    .describe(
      'Kafka consumer group reading callbacks.v1; batch.events.v1 is read by <group>.batch-events (one per environment on a shared cluster).',
    ),
});

export type NotifierConfig = z.infer<typeof notifierSettings>;

export function loadNotifierConfig(env: NodeJS.ProcessEnv = process.env): NotifierConfig {
  return loadConfig(notifierSettings, env);
}
