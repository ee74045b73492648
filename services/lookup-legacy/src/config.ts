import {
  databaseSettings,
  durationMs,
  kafkaSettings,
  loadConfig,
  secret,
  serviceSettings,
  trustSettings,
  url,
  z,
} from '@msg/config';

export const lookupLegacySettings = z.object({
  ...serviceSettings.shape,
  ...kafkaSettings.shape,
  ...trustSettings.shape,
  DATABASE_URL: databaseSettings.shape.DATABASE_URL.describe(
    'Postgres connection URL for the shared per-account rate buckets; unset, each replica applies the rate on its own',
  ),
  NUMBERS_URL: url({ protocols: ['http:', 'https:'] }).describe(
    'Base URL of the number intelligence service (its /internal/v1/numbers API), no trailing slash',
  ),
  NUMBERS_INTERNAL_TOKEN: secret().describe(
    'Bearer token of the numbers service internal API (its NUMBERS_INTERNAL_TOKEN)',
  ),
  NUMBERS_TIMEOUT_MS: durationMs('5s').describe(
    'How long one call to the numbers service may take (it waits up to its HLR timeout); one retry follows a failure',
  ),
});

export type LookupLegacyConfig = z.infer<typeof lookupLegacySettings>;

export function loadLookupLegacyConfig(env: NodeJS.ProcessEnv = process.env): LookupLegacyConfig {
  return loadConfig(lookupLegacySettings, env);
}
