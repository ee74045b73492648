import type { RequestHandler } from 'express';
import { switchWebhook, type WebhookAccess } from '../webhooks/webhook-access.js';

/** POST /v1/webhooks/{webhook_id}/enable */
export function enableWebhook(webhooks: WebhookAccess): RequestHandler {
  return switchWebhook(webhooks, true);
}
