import type { RequestHandler } from 'express';
import { type WebhookAccess, webhookConfiguration } from '../webhooks/webhook-access.js';

/** GET /v1/webhooks?agent_id= — any authenticated client may view (spec 4.5 rule 3). */
export function listWebhooks(webhooks: WebhookAccess): RequestHandler {
  return async (req, res) => {
    const rows = await webhooks.store().list(String(req.query.agent_id));
    res.json(rows.map(webhookConfiguration));
  };
}
