import { requireAccount } from '@msg/auth';
import { ValidationError } from '@msg/http';
import type { RequestHandler } from 'express';
import { normalizeEvents } from '../webhooks/event-vocabulary.js';
import {
  duplicateUrl,
  type WebhookAccess,
  webhookConfiguration,
} from '../webhooks/webhook-access.js';

type CreateWebhookBody = {
  agent_id: string;
  webhook_url: string;
  description?: string | null;
  enabled_events?: string[];
  is_enabled?: boolean;
};

/** POST /v1/webhooks — 201 with the configuration and its secret (shown this once). */
export function createWebhook(webhooks: WebhookAccess): RequestHandler {
  return async (req, res) => {
    const body = req.body as CreateWebhookBody;
    const store = webhooks.store();
    if (!(await store.agentExists(body.agent_id))) {
      throw ValidationError.field(['body', 'agent_id'], 'unknown_agent', 'no such agent');
    }
    await webhooks.mayManage(req, body.agent_id);
    const outcome = await store.create({
      account_id: requireAccount(req).id,
      agent_id: body.agent_id,
      webhook_url: body.webhook_url,
      description: body.description ?? null,
      enabled_events: normalizeEvents(body.enabled_events ?? ['*']),
      is_enabled: body.is_enabled ?? true,
    });
    if (outcome.kind === 'duplicate') throw duplicateUrl();
    if (outcome.kind === 'limit') {
      throw ValidationError.field(
        ['body', 'agent_id'],
        'webhook_limit',
        'the agent already has 5 webhooks (the most allowed)',
      );
    }
    res.status(201).json({ ...webhookConfiguration(outcome.row), webhook_secret: outcome.secret });
  };
}
