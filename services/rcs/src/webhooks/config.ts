import { bool, csv, durationMs, int, secret, url, z } from '@msg/config';

/** Settings of the webhooks (merged into the service's settings by config.ts). */
export const webhookSettingsShape = {
  RCS_WEBHOOK_TIMEOUT_MS: int({ min: 100, max: 120_000, default: 10_000 }).describe(
    'Deadline of the webhook test operation in milliseconds (spec 4.5 rule 7, 8.4: 10 s).',
  ),
  RCS_WEBHOOK_RETRY_HORIZON: durationMs('15m').describe(
    'How long the notifier retries an event delivery (exponential backoff) before dead-lettering it (spec 6.3: several minutes).',
  ),
  RCS_WEBHOOK_ALLOW_PRIVATE_TARGETS: bool(false).describe(
    'Accept webhook_url with a loopback, private, link-local or metadata host (refused with 400 otherwise) and let the test operation call such addresses (development only; the notifier has its own CALLBACK_ALLOW_PRIVATE_TARGETS).',
  ),
  RCS_WEBHOOK_ALLOWED_HOSTS: csv()
    .optional()
    .describe(
      'Hosts (or IP literals) webhook_url may name and the test operation calls whatever they are or resolve to (trusted internal receivers).',
    ),
  NOTIFIER_URL: url({ protocols: ['http:', 'https:'] }).describe(
    "Base URL of the notifier (its internal address, /internal/v1/signatures): it signs the webhook test event with the account's Standard Webhooks secret",
  ),
  NOTIFIER_INTERNAL_TOKEN: secret().describe(
    'Bearer token of the notifier internal API (its NOTIFIER_INTERNAL_TOKEN)',
  ),
  RCS_WEBHOOK_CONSUMER_GROUP: z
    .string()
    .min(1)
    .default('rcs-webhooks')
    .describe('Kafka consumer group reading rcs.events.v1 to fan events out to webhooks.'),
};

export interface WebhookSettings {
  RCS_WEBHOOK_TIMEOUT_MS: number;
  RCS_WEBHOOK_RETRY_HORIZON: number;
  RCS_WEBHOOK_ALLOW_PRIVATE_TARGETS: boolean;
  RCS_WEBHOOK_ALLOWED_HOSTS?: string[] | undefined;
  NOTIFIER_URL: string;
  NOTIFIER_INTERNAL_TOKEN: string;
  RCS_WEBHOOK_CONSUMER_GROUP: string;
}
