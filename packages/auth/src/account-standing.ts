import type { AccountState } from '@msg/contracts';

/**
 * Why an account that authenticated may still not send (specification part 5, rule 3):
 * - `inactive`: the account is disabled (the specification's "inactive account, contract
 *   terminated"; the admin service's `disable`);
 * - `no-funds`: the account is prepaid and its balance is empty, as accounts.v1 last said.
 *
 * The legacy reply-path interface answers both with 401 (spec 7.3); the current interfaces refuse
 * `inactive` with 403 (`requireActive`) and learn `no-funds` from the debit itself
 * (`createPrepaidDebits`), which is exact where this view of the directory can lag a moment.
 */
export type AccountStanding = 'ok' | 'inactive' | 'no-funds';

export function accountStanding(account: AccountState): AccountStanding {
  if (account.status !== 'active') return 'inactive';
  if (account.billing?.mode === 'prepaid' && !account.billing.fundsAvailable) return 'no-funds';
  return 'ok';
}
