import type { Logger } from '@msg/logger';
import { createCallbackSender } from '@msg/webhooks';
import type { WebhookSettings } from './config.js';
import type { NotifierSignatures } from './notifier-signatures.js';
import { signWebhookBody, WEBHOOK_SIGNATURE_HEADER } from './signing.js';

/** Spec 4.5 rule 7: only these answers make a test successful (not every 2xx). */
const SUCCESS_STATUSES = new Set([200, 201, 202, 204]);

export const TEST_EVENT_TYPE = 'webhook.test';

export interface TestResult {
  success: boolean;
  status_code: number | null;
  response_time_ms: number;
  error_message: string | null;
  test_event_sent: { event_type: string; timestamp: string };
}

/**
 * The synchronous test call of POST /v1/webhooks/{id}/test: one attempt with the configured
 * deadline, no retry, private targets refused as the notifier refuses them. Signed as every
 * event delivery is: X-Webhook-Signature with the webhook's secret (spec 5 rule 4) and the
 * Standard Webhooks headers with the account's callback secret, which the notifier signs with
 * (the test is sent here, synchronously, so the notifier only signs it).
 */
export function createWebhookTester(
  settings: WebhookSettings,
  signatures: NotifierSignatures,
  logger: Logger,
) {
  const sender = createCallbackSender({
    logger,
    timeoutMs: settings.RCS_WEBHOOK_TIMEOUT_MS,
    allowPrivateTargets: settings.RCS_WEBHOOK_ALLOW_PRIVATE_TARGETS,
    allowedHosts: settings.RCS_WEBHOOK_ALLOWED_HOSTS ?? [],
    userAgent: 'msg-rcs-webhook-test/1',
  });

  return {
    async test(webhook: {
      id: string;
      agent_id: string;
      webhook_url: string;
      secret: string;
      /** The account whose callback secret signs: the webhook's creator, as for its events. */
      account_id: string;
    }): Promise<TestResult> {
      const timestamp = new Date().toISOString();
      const bodyText = JSON.stringify({
        event_type: TEST_EVENT_TYPE,
        timestamp,
        webhook_id: webhook.id,
        agent_id: webhook.agent_id,
        message: 'Test event from the RCS webhook test operation.',
      });
      const standard = await signatures.sign(webhook.account_id, bodyText);
      const result = await sender.send({
        url: webhook.webhook_url,
        method: 'POST',
        bodyText,
        headers: {
          ...standard,
          [WEBHOOK_SIGNATURE_HEADER]: signWebhookBody(webhook.secret, bodyText),
        },
      });
      const success = result.status !== undefined && SUCCESS_STATUSES.has(result.status);
      return {
        success,
        status_code: result.status ?? null,
        response_time_ms: result.durationMs,
        error_message: success ? null : (result.error ?? `HTTP ${result.status}`),
        test_event_sent: { event_type: TEST_EVENT_TYPE, timestamp },
      };
    },
    close: () => sender.close(),
  };
}

export type WebhookTester = ReturnType<typeof createWebhookTester>;
