import type { CallbackRequest } from '@msg/contracts';
import { ANY_TARGET, isClientUrl } from '@msg/http';
import type { FinalOutcome } from '../messages/final-outcome.js';

/** A finished message, as its report needs it. */
export interface ReportedMessage {
  transactionId: string;
  accountId: string;
  clientReference: string | null;
}

/**
 * Spec 6.4's query: Result 1 / StatusCode 1 delivered; Result 2 / StatusCode 1 not delivered;
 * Result 2 / StatusCode 5 internal error. ProgressTime is the seconds listened (0 unanswered);
 * ExternalReferenceId is empty when the client gave none (the parameter is always sent).
 */
export function reportQuery(
  message: ReportedMessage,
  outcome: FinalOutcome,
): Record<string, string> {
  const delivered = outcome.status === 'completed';
  return {
    TransactionId: message.transactionId,
    Result: delivered ? '1' : '2',
    StatusCode: outcome.failureCode === 5 ? '5' : '1',
    ProgressTime: String(delivered ? outcome.listenedSeconds : 0),
    Sequence: 'end',
    ExternalReferenceId: message.clientReference ?? '',
  };
}

/**
 * The callbacks.v1 request of the one report of a message (GET to the account's voice report
 * URL); null without a usable URL. Its id is the transaction's, so a finish replayed after a
 * crash is still one report; the notifier retries it until `giveUpAt`, then drops it (the outcome
 * stays queryable).
 */
export function reportRequest(
  url: string | null | undefined,
  message: ReportedMessage,
  outcome: FinalOutcome,
  giveUpAt: Date,
): CallbackRequest | null {
  if (!url || !isClientUrl(url, ANY_TARGET)) return null;
  return {
    callbackId: `voice-report-${message.transactionId}`,
    accountId: message.accountId,
    url,
    method: 'GET',
    query: reportQuery(message, outcome),
    giveUpAt: giveUpAt.toISOString(),
    origin: { service: 'voice', kind: 'delivery-report' },
  };
}
