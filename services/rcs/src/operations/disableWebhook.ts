import type { RequestHandler } from 'express';
import { switchWebhook, type WebhookAccess } from '../webhooks/webhook-access.js';

/** POST /v1/webhooks/{webhook_id}/disable */
export function disableWebhook(webhooks: WebhookAccess): RequestHandler {
  return switchWebhook(webhooks, false);
}
