import { type ProtectedSenderDirectory, requireAccount } from '@msg/auth';
import type { RequestHandler } from 'express';
import type { Messages } from '../messages/messages.js';
import { checkSendRequest, type SendSmsBody } from '../messages/send-request.js';

/**
 * POST /v1/sms/send — 202 Accepted with the messageId once the message and its outbound event
 * are durable; delivery itself is asynchronous (GET /v1/sms/{messageId}, callbacks).
 */
export function sendSms(
  messages: Messages,
  protectedSenders: Pick<ProtectedSenderDirectory, 'names'>,
): RequestHandler<object, unknown, SendSmsBody> {
  return async (req, res) => {
    const account = requireAccount(req);
    const sms = checkSendRequest(req.body, {
      registered: account.senderIds,
      protectedNames: protectedSenders.names(),
    });
    const messageId = await messages.accept(account, sms, req.requestId);
    res.status(202).location(`/v1/sms/${messageId}`).json({ messageId });
  };
}
