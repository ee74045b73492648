import {
  durationMs,
  loadConfig,
  secret,
  serviceSettings,
  trustSettings,
  url,
  z,
} from '@msg/config';

export const replypathLegacySettings = z.object({
  ...serviceSettings.shape,
  ...trustSettings.shape,
  REPLYPATH_URL: url({ protocols: ['http:', 'https:'] }).describe(
    'Base URL of the replypath service (its /internal/v1/sendsms API), no trailing slash',
  ),
  REPLYPATH_INTERNAL_TOKEN: secret().describe(
    'Bearer token of the replypath service internal API (its REPLYPATH_INTERNAL_TOKEN)',
  ),
  REPLYPATH_TIMEOUT_MS: durationMs('10s').describe(
    'How long one send may take at the replypath service; never retried (a retry could send twice)',
  ),
});

export type ReplypathLegacyConfig = z.infer<typeof replypathLegacySettings>;

export function loadReplypathLegacyConfig(
  env: NodeJS.ProcessEnv = process.env,
): ReplypathLegacyConfig {
  return loadConfig(replypathLegacySettings, env);
}
