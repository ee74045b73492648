import type { AccountState } from '@msg/contracts';
import { HttpError, UpstreamUnavailableError } from '@msg/http';
import type { Logger } from '@msg/logger';

/** One message to pay for: `reference` makes a retried debit a no-op (its message id). */
export interface DebitItem {
  reference: string;
  /** SMS parts of the message: one credit each. */
  parts: number;
}

/**
 * 402 Payment Required, code INSUFFICIENT_FUNDS: the account is prepaid and its balance does not
 * cover the message's parts (rule 5.3). Other credentials would not fix it; a top-up would.
 */
export class InsufficientFundsError extends HttpError {
  constructor(parts: number) {
    super(402, 'INSUFFICIENT_FUNDS', insufficientFundsMessage(parts));
  }
}

/** The refusal's message, for interfaces that answer it with another status (reply-path 403). */
export function insufficientFundsMessage(parts: number): string {
  return `prepaid balance does not cover ${parts} SMS part${parts === 1 ? '' : 's'}; top up the account`;
}

export interface PrepaidBillingOptions {
  /** Base URL of the admin service (ADMIN_URL); unset: prepaid sends are refused with 503. */
  adminUrl: string | undefined;
  /** Bearer token of its billing API (BILLING_INTERNAL_TOKEN). */
  token: string | undefined;
  logger: Logger;
  /** Per attempt; one retry follows a network failure or a 5xx (debits are idempotent). */
  timeoutMs?: number;
  fetch?: typeof globalThis.fetch;
}

export interface PrepaidBilling {
  /**
   * Pays for messages in order, as far as the balance goes: the answer says, item by item, whether
   * it was paid (and may be sent). The first item the balance cannot cover and every one after it
   * are refused, so a batch stops where the money did. Postpaid: all true, no call.
   */
  chargeInOrder(account: AccountState, items: readonly DebitItem[]): Promise<boolean[]>;
  /**
   * Gives back a charge whose message was not accepted after all (storing it failed, or the
   * interface refused it after paying). Best effort, never throws: answers whether credits came
   * back; a failure is logged (the debit then stays, as a charge for a message not sent).
   * Postpaid: false, no call.
   */
  refund(account: AccountState, reference: string): Promise<boolean>;
}

/** Most items one call to the billing API carries (its document's maxItems). */
export const MAX_DEBIT_ITEMS = 1000;
const RETRY_AFTER_SECONDS = 5;

/** Whether sends of this account are paid from a prepaid balance (absent billing: postpaid). */
export function isPrepaid(account: AccountState): boolean {
  return account.billing?.mode === 'prepaid';
}

/**
 * The one way every sending service pays for prepaid SMS (through submitSms): a call to the
 * admin service's `POST /internal/v1/accounts/{id}/debits`, which owns the balance and debits it
 * under the account's row lock (exact under any concurrency, never below zero). Postpaid accounts
 * cost nothing on the hot path: no call is made.
 */
export function createPrepaidBilling({
  adminUrl,
  token,
  logger,
  timeoutMs = 5000,
  fetch = globalThis.fetch,
}: PrepaidBillingOptions): PrepaidBilling {
  const unavailable = () =>
    new UpstreamUnavailableError(
      'prepaid billing is not available now; try again later',
      RETRY_AFTER_SECONDS,
    );

  /**
   * One call to the billing API, retried once after a network failure or a 5xx (debits and
   * refunds are idempotent by reference). Any other failure is UpstreamUnavailableError.
   */
  async function call(accountId: string, path: string, init: RequestInit): Promise<unknown> {
    if (!adminUrl || !token) {
      logger.error('prepaid billing refused: ADMIN_URL or BILLING_INTERNAL_TOKEN not configured', {
        accountId,
      });
      throw unavailable();
    }
    const url = `${adminUrl.replace(/\/$/, '')}/internal/v1/accounts/${encodeURIComponent(accountId)}/${path}`;
    for (let attempt = 1; ; attempt += 1) {
      let status: number | undefined;
      try {
        const response = await fetch(url, {
          ...init,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          signal: AbortSignal.timeout(timeoutMs),
        });
        status = response.status;
        if (response.ok) return await response.json();
        await response.body?.cancel();
        logger.warn('billing call refused', { accountId, status, attempt });
      } catch (error) {
        logger.warn('billing call failed', { accountId, attempt, reason: String(error) });
      }
      // 4xx will not change on retry (a wrong token, an unknown account).
      const retryable = status === undefined || status >= 500;
      if (!retryable || attempt >= 2) throw unavailable();
    }
  }

  async function post(accountId: string, items: readonly DebitItem[]): Promise<boolean[]> {
    const body = (await call(accountId, 'debits', {
      method: 'POST',
      body: JSON.stringify({ items }),
    })) as { results?: { debited?: unknown }[] } | null;
    const results = body?.results?.map((r) => r.debited === true);
    if (results?.length === items.length) return results;
    logger.error('billing answer unreadable', { accountId });
    throw unavailable();
  }

  async function chargeInOrder(
    account: AccountState,
    items: readonly DebitItem[],
  ): Promise<boolean[]> {
    if (!isPrepaid(account)) return items.map(() => true);
    const paid: boolean[] = [];
    for (let from = 0; from < items.length; from += MAX_DEBIT_ITEMS) {
      const page = items.slice(from, from + MAX_DEBIT_ITEMS);
      // Once one was refused, the rest are too (in order, as far as the balance goes).
      if (paid.includes(false)) paid.push(...page.map(() => false));
      else paid.push(...(await post(account.id, page)));
    }
    return paid;
  }

  return {
    chargeInOrder,
    async refund(account, reference) {
      if (!isPrepaid(account)) return false;
      try {
        const body = (await call(account.id, `debits/${encodeURIComponent(reference)}`, {
          method: 'DELETE',
        })) as { refunded?: unknown } | null;
        return body?.refunded === true;
      } catch {
        logger.error('prepaid refund failed; the charge stays', { accountId: account.id });
        return false;
      }
    },
  };
}
