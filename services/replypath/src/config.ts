import {
  durationMs,
  loadConfig,
  prepaidBillingSettings,
  secret,
  serviceSettings,
  trustSettings,
  z,
} from '@msg/config';

/** The service's own settings; DATABASE_URL and KAFKA_BROKERS are the service kit's. */
export const replypathSettings = z.object({
  ...serviceSettings.shape,
  ...trustSettings.shape,
  // ADMIN_URL, BILLING_INTERNAL_TOKEN: prepaid accounts pay per SMS part at acceptance.
  ...prepaidBillingSettings.shape,
  REPLYPATH_INTERNAL_TOKEN: secret()
    .optional()
    .describe(
      'Bearer token of POST /internal/v1/sendsms (the legacy reply-path service); unset: refused (401)',
    ),
  REPLYPATH_ADMIN_TOKEN: secret()
    .optional()
    .describe(
      'Bearer token of the pool management API /internal/v1/pool/... (operators, the CLI); unset: refused (401)',
    ),
  REPLYPATH_QUARANTINE: durationMs('1h').describe(
    'How long a (recipient, number) pair stays blocked after its reservation ends or is released, so a late reply is never credited to a newer message',
  ),
  REPLYPATH_SWEEP_INTERVAL: durationMs('30s').describe(
    'Pause between sweeps that remove the records of reservations whose validity period ended (and reservations past their quarantine)',
  ),
});

export type ReplypathConfig = z.infer<typeof replypathSettings>;

export function loadReplypathConfig(env: NodeJS.ProcessEnv = process.env): ReplypathConfig {
  return loadConfig(replypathSettings, env);
}
