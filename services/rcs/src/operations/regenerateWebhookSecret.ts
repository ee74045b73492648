import { NotFoundError } from '@msg/http';
import type { RequestHandler } from 'express';
import type { WebhookAccess } from '../webhooks/webhook-access.js';

/** POST /v1/webhooks/{webhook_id}/regenerate-secret — the new secret, shown this once. */
export function regenerateWebhookSecret(webhooks: WebhookAccess): RequestHandler {
  return async (req, res) => {
    const row = await webhooks.owned(req);
    const regenerated = await webhooks.store().regenerate(row.id);
    if (!regenerated) throw new NotFoundError('webhook not found');
    res.json({
      id: row.id,
      regenerated_at: regenerated.at.toISOString(),
      webhook_secret: regenerated.secret,
    });
  };
}
