import { requireAccount } from '@msg/auth';
import { ConflictError, ForbiddenError, NotFoundError, UpstreamUnavailableError } from '@msg/http';
import type { Request, RequestHandler } from 'express';
import type { WebhookRow, WebhookStore } from './store.js';
import type { WebhookTester } from './test-delivery.js';

/** The webhook configuration of 2.5, without the secret (returned on create and regenerate only). */
export function webhookConfiguration(row: WebhookRow) {
  return {
    id: row.id,
    agent_id: row.agent_id,
    webhook_url: row.webhook_url,
    description: row.description,
    enabled_events: row.enabled_events,
    is_enabled: row.is_enabled,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function duplicateUrl(): ConflictError {
  return new ConflictError('webhook_url is already registered for this agent');
}

/** What startWebhooks gives the webhook operations. */
export interface WebhookDeps {
  store: WebhookStore | undefined;
  tester: WebhookTester;
}

/**
 * The access rules every /v1/webhooks operation shares (spec 4.5): any authenticated client may
 * view any webhook (rule 3); creating, changing, testing and deleting are for accounts that may
 * send as the webhook's agent (403 otherwise). Without RCS_CREDENTIALS_KEY secrets cannot be
 * sealed: every operation is 503.
 */
export interface WebhookAccess {
  store(): WebhookStore;
  /** The webhook of the path's webhook_id; 404 when there is none. */
  found(req: Request): Promise<WebhookRow>;
  /** The same, when the account may manage it; 403 otherwise. */
  owned(req: Request): Promise<WebhookRow>;
  mayManage(req: Request, agentId: string): Promise<void>;
  tester: WebhookTester;
}

export function webhookAccess({ store: maybeStore, tester }: WebhookDeps): WebhookAccess {
  function store(): WebhookStore {
    if (!maybeStore) throw new UpstreamUnavailableError('webhook secrets key is not configured');
    return maybeStore;
  }

  async function found(req: Request): Promise<WebhookRow> {
    const row = await store().get(String(req.params.webhook_id));
    if (!row) throw new NotFoundError('webhook not found');
    return row;
  }

  async function owned(req: Request): Promise<WebhookRow> {
    const row = await found(req);
    await mayManage(req, row.agent_id);
    return row;
  }

  async function mayManage(req: Request, agentId: string): Promise<void> {
    const account = requireAccount(req);
    if (!(await store().mayManage(agentId, account.id))) {
      throw new ForbiddenError('the account may not manage the webhooks of this agent');
    }
  }

  return { store, found, owned, mayManage, tester };
}

/** POST /v1/webhooks/{webhook_id}/disable and /enable: the one switch both set. */
export function switchWebhook(webhooks: WebhookAccess, enabled: boolean): RequestHandler {
  return async (req, res) => {
    await webhooks.owned(req);
    const row = await webhooks
      .store()
      .update(String(req.params.webhook_id), { is_enabled: enabled });
    if (!row || row === 'duplicate') throw new NotFoundError('webhook not found');
    res.json(webhookConfiguration(row));
  };
}
