import { internalApiSettings, loadConfig, serviceSettings, trustSettings, z } from '@msg/config';

export const replypathLegacySettings = z.object({
  ...serviceSettings.shape,
  ...trustSettings.shape,
  ...internalApiSettings('REPLYPATH', {
    service: 'replypath service',
    api: '/internal/v1/sendsms',
    timeout: {
      default: '10s',
      describe:
        'How long one send may take at the replypath service; never retried (a retry could send twice)',
    },
  }).shape,
});

export type ReplypathLegacyConfig = z.infer<typeof replypathLegacySettings>;

export function loadReplypathLegacyConfig(
  env: NodeJS.ProcessEnv = process.env,
): ReplypathLegacyConfig {
  return loadConfig(replypathLegacySettings, env);
}
