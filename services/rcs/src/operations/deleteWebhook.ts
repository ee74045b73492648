import type { RequestHandler } from 'express';
import type { WebhookAccess } from '../webhooks/webhook-access.js';

/** DELETE /v1/webhooks/{webhook_id} */
export function deleteWebhook(webhooks: WebhookAccess): RequestHandler {
  return async (req, res) => {
    await webhooks.owned(req);
    await webhooks.store().remove(String(req.params.webhook_id));
    res.status(204).end();
  };
}
