import type { SecretBox } from '@msg/auth';
import type { DatabaseContext } from '@msg/service-kit';
import type { WebhookSettings } from './config.js';
import { subscribeWebhookFanOut } from './fan-out.js';
import { createNotifierSignatures } from './notifier-signatures.js';
import { createWebhookStore } from './store.js';
import { createWebhookTester } from './test-delivery.js';
import type { WebhookDeps } from './webhook-access.js';

/**
 * The webhooks of the RCS service: what their operations use (for createApp) and, once listening,
 * the fan-out of rcs.events.v1 (the service's own events, read back from the topic) into
 * callbacks.v1 requests for the notifier. Secrets are sealed with `box` (RCS_CREDENTIALS_KEY);
 * without it the routes answer 503 and nothing is fanned out.
 */
export function startWebhooks(
  settings: WebhookSettings,
  box: SecretBox | undefined,
  kit: DatabaseContext,
): WebhookDeps {
  const store = box ? createWebhookStore(kit.pool, box) : undefined;
  const signatures = createNotifierSignatures({
    baseUrl: settings.NOTIFIER_URL,
    token: settings.NOTIFIER_INTERNAL_TOKEN,
    timeoutMs: settings.RCS_WEBHOOK_TIMEOUT_MS,
    logger: kit.logger,
  });
  const tester = createWebhookTester(settings, signatures, kit.logger);
  kit.onStop('webhook-tester', () => tester.close());
  if (store) {
    kit.afterListen('webhook-fan-out', () =>
      subscribeWebhookFanOut({
        bus: kit.bus,
        store,
        logger: kit.logger,
        groupId: settings.RCS_WEBHOOK_CONSUMER_GROUP,
        retryHorizonMs: settings.RCS_WEBHOOK_RETRY_HORIZON,
      }),
    );
  } else {
    kit.logger.warn('RCS_CREDENTIALS_KEY is not set: webhooks are unavailable');
  }
  return { store, tester };
}
