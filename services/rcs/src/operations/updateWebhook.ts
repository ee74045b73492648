import { NotFoundError, ValidationError } from '@msg/http';
import type { RequestHandler } from 'express';
import { normalizeEvents } from '../webhooks/event-vocabulary.js';
import type { WebhookChanges } from '../webhooks/store.js';
import {
  duplicateUrl,
  type WebhookAccess,
  webhookConfiguration,
} from '../webhooks/webhook-access.js';

/** Spec 4.5 rule 6: changed only by delete and recreate, or by regeneration. */
const IMMUTABLE = ['agent_id', 'webhook_secret'] as const;

/** PATCH /v1/webhooks/{webhook_id} */
export function updateWebhook(webhooks: WebhookAccess): RequestHandler {
  return async (req, res) => {
    const body = req.body as Record<string, unknown>;
    const immutable = IMMUTABLE.filter((field) => field in body);
    if (immutable.length > 0) {
      throw new ValidationError(
        `${immutable.join(', ')} cannot be changed by update`,
        immutable.map((field) => ({
          loc: ['body', field],
          msg:
            field === 'agent_id'
              ? 'immutable: delete the webhook and create one for the other agent'
              : 'immutable: use POST /v1/webhooks/{id}/regenerate-secret',
          type: 'immutable',
        })),
      );
    }
    await webhooks.owned(req);
    const changes: WebhookChanges = {};
    if (typeof body.webhook_url === 'string') {
      changes.webhook_url = body.webhook_url;
    }
    // null: description cleared; enabled_events and is_enabled back to their defaults.
    if (body.description !== undefined) changes.description = body.description as string | null;
    if (body.enabled_events !== undefined) {
      changes.enabled_events = normalizeEvents((body.enabled_events as string[] | null) ?? ['*']);
    }
    if (body.is_enabled !== undefined)
      changes.is_enabled = (body.is_enabled as boolean | null) ?? true;
    const row = await webhooks.store().update(String(req.params.webhook_id), changes);
    if (row === 'duplicate') throw duplicateUrl();
    if (!row) throw new NotFoundError('webhook not found');
    res.json(webhookConfiguration(row));
  };
}
