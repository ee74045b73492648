import { durationMs, prepaidBillingSettings, z } from '@msg/config';

/** Settings of the SMS fallback and TTL expiry (merged into the service's settings by config.ts). */
export const fallbackSettingsShape = {
  ...prepaidBillingSettings.shape,
  RCS_SMS_FALLBACK_TTL: durationMs('10m').describe(
    'How long a message with sms_fallback but no ttl may stay undelivered over RCS before it is revoked and sent as SMS (Vonage failover waits 10 minutes by default too).',
  ),
  RCS_TTL_SWEEP_INTERVAL: durationMs('5s').describe(
    'Pause between sweeps for messages whose TTL passed undelivered (revoke at RBM, then SMS fallback or TTL_EXPIRED).',
  ),
  RCS_SMS_STATUS_CONSUMER_GROUP: z
    .string()
    .min(1)
    .default('rcs-sms-status')
    .describe('Kafka consumer group reading sms.status.v1 for the fallback SMS outcomes.'),
};

export interface FallbackSettings {
  ADMIN_URL?: string | undefined;
  BILLING_INTERNAL_TOKEN?: string | undefined;
  RCS_SMS_FALLBACK_TTL: number;
  RCS_TTL_SWEEP_INTERVAL: number;
  RCS_SMS_STATUS_CONSUMER_GROUP: string;
}
