import { requireAccount } from '@msg/auth';
import type { RequestHandler } from 'express';
import { checkSendRequest, type SendSmsBody } from '../messages/send-request.js';
import type { Sender } from '../messages/sender.js';

/**
 * POST /replypath/v1/sendsms — 200 once the message(s), reservation(s) and outbound event(s)
 * are durable: one result object for one recipient, an array in `To` order for several;
 * `instantiate=false` answers what would be allocated without storing anything.
 */
export function sendSms(
  sender: Sender,
): RequestHandler<object, unknown, SendSmsBody, { instantiate?: boolean }> {
  return async (req, res) => {
    const account = requireAccount(req);
    const sms = checkSendRequest(req.body);
    const results = await sender.send(account, sms, {
      source: 'replypath',
      // The validator parsed the query into its declared boolean (default true).
      instantiate: req.query.instantiate !== false,
      ...(req.requestId && { traceId: req.requestId }),
    });
    res.json(results.length === 1 ? results[0] : results);
  };
}
