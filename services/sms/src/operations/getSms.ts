import { requireAccount } from '@msg/auth';
import type { RequestHandler } from 'express';
import type { Messages } from '../messages/messages.js';

/** GET /v1/sms/{messageId} — the status of one of the caller's messages. */
export function getSms(messages: Messages): RequestHandler<{ messageId: string }> {
  return async (req, res) => {
    const account = requireAccount(req);
    res.json(await messages.get(account.id, req.params.messageId));
  };
}
