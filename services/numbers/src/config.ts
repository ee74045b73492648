import {
  durationMs,
  loadConfig,
  secret,
  serviceSettings,
  trustSettings,
  url,
  z,
} from '@msg/config';

export const numbersSettings = z.object({
  ...serviceSettings.shape,
  ...trustSettings.shape,
  PROBLEM_TYPE_BASE: url({ protocols: ['http:', 'https:'] })
    .prefault('https://api.messaging.example/problems')
    .describe(
      'Prefix of the problem type URIs ({problem_type_base}); must match the gateway setting',
    ),
  HLR_URL: url({ protocols: ['http:', 'https:'] })
    .optional()
    .describe('Base URL of the HLR provider API; unset: every live status is unavailable'),
  HLR_USERNAME: z.string().optional().describe('HTTP Basic user name at the HLR provider'),
  HLR_PASSWORD: secret().optional().describe('HTTP Basic password at the HLR provider'),
  HLR_TIMEOUT_MS: durationMs('3s').describe(
    'How long an HLR query may take before the status is unavailable',
  ),
  LIVE_TTL_PRESENT: durationMs('15m').describe(
    'How long a live reachable/absent answer is reused (spec 2.7: minutes)',
  ),
  LIVE_TTL_BARRED: durationMs('6h').describe(
    'How long a live barred answer is reused (spec 2.7: hours)',
  ),
  LIVE_TTL_UNKNOWN: durationMs('24h').describe(
    'How long a live unknown_subscriber/not_provisioned answer is reused (spec 2.7: about a day)',
  ),
  NUMBERS_INTERNAL_TOKEN: secret()
    .optional()
    .describe(
      'Bearer token of GET /internal/v1/numbers/{digits} (legacy lookup); unset: refused (401)',
    ),
});

export type NumbersConfig = z.infer<typeof numbersSettings>;

export function loadNumbersConfig(env: NodeJS.ProcessEnv = process.env): NumbersConfig {
  return loadConfig(numbersSettings, env);
}
