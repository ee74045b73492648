import { internalApiSettings, loadConfig, serviceSettings, trustSettings, z } from '@msg/config';

export const lookupLegacySettings = z.object({
  ...serviceSettings.shape,
  ...trustSettings.shape,
  ...internalApiSettings('NUMBERS', {
    service: 'number intelligence service',
    api: '/internal/v1/numbers',
    timeout: {
      default: '5s',
      describe:
        'How long one call to the numbers service may take (it waits up to its HLR timeout); one retry follows a failure',
    },
  }).shape,
});

export type LookupLegacyConfig = z.infer<typeof lookupLegacySettings>;

export function loadLookupLegacyConfig(env: NodeJS.ProcessEnv = process.env): LookupLegacyConfig {
  return loadConfig(lookupLegacySettings, env);
}
