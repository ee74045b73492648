import { requireAccount } from '@msg/auth';
import { NotFoundError } from '@msg/http';
import type { RequestHandler } from 'express';
import type { WebhookAccess } from '../webhooks/webhook-access.js';

/** POST /v1/webhooks/{webhook_id}/test — one signed test event, its outcome answered. */
export function testWebhook(webhooks: WebhookAccess): RequestHandler {
  return async (req, res) => {
    const row = await webhooks.owned(req);
    const secret = await webhooks.store().secretOf(row.id);
    if (secret === undefined) throw new NotFoundError('webhook not found');
    // A webhook older than its creator's column is signed for the account testing it.
    const accountId = row.account_id ?? requireAccount(req).id;
    res.json(await webhooks.tester.test({ ...row, secret, account_id: accountId }));
  };
}
