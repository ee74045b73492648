import { secretBoxKeySetting } from '@msg/auth';
import { int, loadConfig, secret, serviceSettings, trustSettings, z } from '@msg/config';
import { deliverySettingsShape } from './delivery/config.js';
import { fallbackSettingsShape } from './fallback/config.js';
import { rbmSettingsShape } from './rbm/config.js';
import { webhookSettingsShape } from './webhooks/config.js';

/** The service's own settings; DATABASE_URL and KAFKA_BROKERS are the service kit's. */
export const rcsSettings = z.object({
  ...serviceSettings.shape,
  ...trustSettings.shape,
  ...webhookSettingsShape,
  ...rbmSettingsShape,
  ...fallbackSettingsShape,
  ...deliverySettingsShape,
  RCS_ADMIN_TOKEN: secret()
    .optional()
    .describe(
      'Bearer token of the operator API /internal/v1/agents and /internal/v1/account-settings (operators, `pnpm rcs agents`, `pnpm rcs fallback`); unset: refused (401)',
    ),
  RCS_CREDENTIALS_KEY: secretBoxKeySetting()
    .optional()
    .describe(
      "AES-256-GCM key (32 bytes, hex or base64) that encrypts agents' RBM service-account keys at rest; unset: agents cannot be given credentials",
    ),
  RCS_RATE_LIMIT_PER_MINUTE: int({ min: 1, max: 1_000_000, default: 100 }).describe(
    'Requests per minute per client (X-Client-ID) on /rcs/v1 and /v1/webhooks (spec 8.4: 100)',
  ),
});

export type RcsConfig = z.infer<typeof rcsSettings>;

export function loadRcsConfig(env: NodeJS.ProcessEnv = process.env): RcsConfig {
  return loadConfig(rcsSettings, env);
}
