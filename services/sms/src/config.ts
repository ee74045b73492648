import {
  callbackTargetSettings,
  loadConfig,
  prepaidBillingSettings,
  serviceSettings,
  trustSettings,
  z,
} from '@msg/config';

/** The service's own settings; DATABASE_URL and KAFKA_BROKERS are the service kit's. */
export const smsSettings = z.object({
  ...serviceSettings.shape,
  ...trustSettings.shape,
  ...prepaidBillingSettings.shape,
  ...callbackTargetSettings.shape,
});

export type SmsConfig = z.infer<typeof smsSettings>;

export function loadSmsConfig(env: NodeJS.ProcessEnv = process.env): SmsConfig {
  return loadConfig(smsSettings, env);
}
