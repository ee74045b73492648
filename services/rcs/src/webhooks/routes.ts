import { requireAccount } from '@msg/auth';
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  UpstreamUnavailableError,
  ValidationError,
} from '@msg/http';
import type { Express, Request } from 'express';
import { normalizeEvents } from './event-vocabulary.js';
import type { WebhookChanges, WebhookRow, WebhookStore } from './store.js';
import type { WebhookTester } from './test-delivery.js';

/** Spec 4.5 rule 6: changed only by delete and recreate, or by regeneration. */
const IMMUTABLE = ['agent_id', 'webhook_secret'] as const;

/** The webhook configuration of 2.5, without the secret (returned on create and regenerate only). */
function configuration(row: WebhookRow) {
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

function duplicateUrl(): ConflictError {
  return new ConflictError('webhook_url is already registered for this agent');
}

export interface WebhookRouteDeps {
  store: WebhookStore | undefined;
  tester: WebhookTester;
}

/**
 * /v1/webhooks (spec 4.5): any authenticated client may view any webhook (rule 3); creating,
 * changing, testing and deleting are for accounts that may send as the webhook's agent (403
 * otherwise). Without RCS_CREDENTIALS_KEY secrets cannot be sealed: every operation is 503.
 */
export function mountWebhookRoutes(app: Express, { store: maybeStore, tester }: WebhookRouteDeps) {
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

  app.get('/v1/webhooks', async (req, res) => {
    const rows = await store().list(String(req.query.agent_id));
    res.json(rows.map(configuration));
  });

  app.post('/v1/webhooks', async (req, res) => {
    const body = req.body as {
      agent_id: string;
      webhook_url: string;
      description?: string | null;
      enabled_events?: string[];
      is_enabled?: boolean;
    };
    if (!(await store().agentExists(body.agent_id))) {
      throw ValidationError.field(['body', 'agent_id'], 'unknown_agent', 'no such agent');
    }
    await mayManage(req, body.agent_id);
    const outcome = await store().create({
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
    res.status(201).json({ ...configuration(outcome.row), webhook_secret: outcome.secret });
  });

  app.get('/v1/webhooks/:webhook_id', async (req, res) => {
    res.json(configuration(await found(req)));
  });

  app.delete('/v1/webhooks/:webhook_id', async (req, res) => {
    await owned(req);
    await store().remove(String(req.params.webhook_id));
    res.status(204).end();
  });

  for (const [action, enabled] of [
    ['disable', false],
    ['enable', true],
  ] as const) {
    app.post(`/v1/webhooks/:webhook_id/${action}`, async (req, res) => {
      await owned(req);
      const row = await store().update(String(req.params.webhook_id), { is_enabled: enabled });
      if (!row || row === 'duplicate') throw new NotFoundError('webhook not found');
      res.json(configuration(row));
    });
  }

  app.patch('/v1/webhooks/:webhook_id', async (req, res) => {
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
    await owned(req);
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
    const row = await store().update(String(req.params.webhook_id), changes);
    if (row === 'duplicate') throw duplicateUrl();
    if (!row) throw new NotFoundError('webhook not found');
    res.json(configuration(row));
  });

  app.post('/v1/webhooks/:webhook_id/regenerate-secret', async (req, res) => {
    const row = await owned(req);
    const regenerated = await store().regenerate(row.id);
    if (!regenerated) throw new NotFoundError('webhook not found');
    res.json({
      id: row.id,
      regenerated_at: regenerated.at.toISOString(),
      webhook_secret: regenerated.secret,
    });
  });

  app.post('/v1/webhooks/:webhook_id/test', async (req, res) => {
    const row = await owned(req);
    const secret = await store().secretOf(row.id);
    if (secret === undefined) throw new NotFoundError('webhook not found');
    // A webhook older than its creator's column is signed for the account testing it.
    const accountId = row.account_id ?? requireAccount(req).id;
    res.json(await tester.test({ ...row, secret, account_id: accountId }));
  });
}
