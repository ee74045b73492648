import {
  databaseSettings,
  kafkaSettings,
  loadConfig,
  serviceSettings,
  trustSettings,
  z,
} from '@msg/config';

export const smsSettings = z.object({
  ...serviceSettings.shape,
  ...databaseSettings.shape,
  ...kafkaSettings.shape,
  ...trustSettings.shape,
});

export type SmsConfig = z.infer<typeof smsSettings>;

export function loadSmsConfig(env: NodeJS.ProcessEnv = process.env): SmsConfig {
  return loadConfig(smsSettings, env);
}
