import { requireAccount } from '@msg/auth';
import type { RequestHandler } from 'express';
import type { CallerIdPolicy } from '../messages/caller-id.js';
import type { MessageStore } from '../messages/message-store.js';
import { restMessage, type SendVoiceRequest } from '../messages/send-rules.js';

/** POST /txt2voice/v1/messages — 202 once the message and its first attempt are stored. */
export function sendVoiceMessage(
  messages: MessageStore,
  policy: CallerIdPolicy,
): RequestHandler<object, unknown, SendVoiceRequest> {
  return async (req, res) => {
    const account = requireAccount(req);
    const message = restMessage(account, req.body, policy);
    const transactionId = await messages.accept(message);
    res.status(202).json({ transaction_id: transactionId, status: 'accepted' });
  };
}
