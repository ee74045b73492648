import type { RequestHandler } from 'express';
import { type WebhookAccess, webhookConfiguration } from '../webhooks/webhook-access.js';

/** GET /v1/webhooks/{webhook_id} */
export function getWebhook(webhooks: WebhookAccess): RequestHandler {
  return async (req, res) => {
    res.json(webhookConfiguration(await webhooks.found(req)));
  };
}
