import { requireAccount } from '@msg/auth';
import { NotFoundError } from '@msg/http';
import type { RequestHandler } from 'express';
import type { MessageStore } from '../messages/message-store.js';

/** GET /txt2voice/v1/messages/{transaction_id} — 404 for an unknown id or another account's. */
export function getVoiceMessage(
  messages: MessageStore,
): RequestHandler<{ transaction_id: string }> {
  return async (req, res) => {
    const account = requireAccount(req);
    const status = await messages.status(account.id, req.params.transaction_id);
    if (!status)
      throw new NotFoundError(`No message with transaction_id ${req.params.transaction_id}`);
    res.json(status);
  };
}
