import type { AccountLookup } from '@msg/auth';
import type { components } from '@msg/contracts/internal/replypath';
import { UpstreamUnavailableError } from '@msg/http';
import type { RequestHandler } from 'express';
import { checkSendRequest } from '../messages/send-request.js';
import type { Sender } from '../messages/sender.js';

type InternalSendSmsBody = components['schemas']['InternalSendSmsRequest'];

/**
 * POST /internal/v1/sendsms — the legacy reply-path service sends for an account it has
 * authenticated; same rules and path as the public send, always answered as a list.
 */
export function sendSmsInternal(
  sender: Sender,
  accounts: AccountLookup,
): RequestHandler<object, unknown, InternalSendSmsBody> {
  return async (req, res) => {
    const { accountId, source, ...fields } = req.body;
    const account = accounts.byId(accountId);
    // The caller authenticated this account, so an unknown id means this replica's directory
    // has not caught up with accounts.v1 yet: a moment later it will have.
    if (!account) throw new UpstreamUnavailableError('the account is not known here yet', 1);
    const sms = checkSendRequest(fields);
    const results = await sender.send(account, sms, {
      source,
      instantiate: true,
      ...(req.requestId && { traceId: req.requestId }),
    });
    res.json({ results });
  };
}
