import { type CredentialVerifier, ipAllowed, type RequestRateLimiter } from '@msg/auth';
import type { AccountState } from '@msg/contracts';
import type { RequestHandler, Response } from 'express';
import type { ValidateMarkup } from '../calls/ports.js';
import {
  LEGACY_CONTENT_TYPE,
  LEGACY_HEADERS,
  legacyFailure,
  legacySuccess,
} from '../legacy/legacy-answer.js';
import {
  LegacyRefusal,
  legacyMessage,
  requireParameters,
  type SendTtsQuery,
} from '../legacy/legacy-request.js';
import type { CallerIdPolicy } from '../messages/caller-id.js';
import type { MessageStore } from '../messages/message-store.js';
import { TEXT_TO_VOICE } from '../permission.js';

export interface SendTtsDeps {
  messages: MessageStore;
  verifier: CredentialVerifier;
  limiter: RequestRateLimiter;
  policy: CallerIdPolicy;
  validateMarkup: ValidateMarkup;
}

/** Why an authenticated account may not send (spec 5 rule 1; the account's IP allow-list). */
function accessRefusal(account: AccountState, ip: string | undefined): string | null {
  if (account.status !== 'active') return 'account disabled';
  if (!account.permissions.includes(TEXT_TO_VOICE)) {
    return 'the account does not have the text-to-voice permission';
  }
  if (!ipAllowed(account, ip)) return "the calling address is not in the account's IP allow-list";
  return null;
}

function answer(res: Response, status: number, body: string) {
  res.status(status).set(LEGACY_HEADERS).type(LEGACY_CONTENT_TYPE).send(body);
}

/**
 * GET /txt2voice/v1/sendtts — the legacy simple HTTP interface (2.6, 4.6, 7.5): 202
 * `request=true&TransactionId=...`; 200 `request=false&error=...` for refusals (credentials,
 * permission, language, caller ID); 400 for malformed parameters and malformed XML.
 */
export function sendTts(deps: SendTtsDeps): RequestHandler<object, unknown, unknown, SendTtsQuery> {
  return async (req, res) => {
    try {
      requireParameters(req.query);
      const account = await deps.verifier.verifyPassword(req.query.User, req.query.Pass);
      if (!account) throw new LegacyRefusal(200, 'wrong user or password');
      const refusal = accessRefusal(account, req.ip);
      if (refusal) throw new LegacyRefusal(200, refusal);
      const rate = await deps.limiter.take(`${TEXT_TO_VOICE}:${account.id}`, account.rateLimit);
      if (!rate.allowed) {
        res.set('Retry-After', String(Math.max(1, Math.ceil(rate.retryAfterSeconds))));
        return answer(res, 429, legacyFailure('rate limit exceeded'));
      }
      const message = legacyMessage(account, req.query, deps.policy, deps.validateMarkup);
      const transactionId = await deps.messages.accept(message);
      answer(res, 202, legacySuccess(transactionId));
    } catch (err) {
      if (!(err instanceof LegacyRefusal)) throw err;
      answer(res, err.status, legacyFailure(err.message));
    }
  };
}
