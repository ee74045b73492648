import { createLogger } from '@msg/logger';
import { describe, expect, it } from 'vitest';
import { webhookSettingsShape } from './config.js';
import { createWebhookTester } from './test-delivery.js';

const logger = createLogger({ service: 'rcs-test', level: 'error' });

describe('webhook test operation target guard', () => {
  it.each(['http://127.0.0.1:9/', 'http://10.1.2.3/', 'http://[::1]/', 'http://169.254.169.254/'])(
    'when private targets are not allowed, then %s is refused without a request',
    async (url) => {
      const tester = createWebhookTester(
        {
          RCS_WEBHOOK_TIMEOUT_MS: 500,
          RCS_WEBHOOK_RETRY_HORIZON: 60_000,
          RCS_WEBHOOK_ALLOW_PRIVATE_TARGETS: false,
          NOTIFIER_URL: 'http://notifier',
          NOTIFIER_INTERNAL_TOKEN: 't',
          RCS_WEBHOOK_CONSUMER_GROUP:
            webhookSettingsShape.RCS_WEBHOOK_CONSUMER_GROUP.parse(undefined),
        },
        {
          sign: async () => ({
            'webhook-id': 'i',
            'webhook-timestamp': '1',
            'webhook-signature': 's',
          }),
        },
        logger,
      );
      const result = await tester.test({
        id: 'w1',
        agent_id: 'a1',
        webhook_url: url,
        secret: 's',
        account_id: 'acc1',
      });
      tester.close();
      expect(result).toMatchObject({
        success: false,
        status_code: null,
        error_message: 'target address not allowed',
      });
    },
  );
});
