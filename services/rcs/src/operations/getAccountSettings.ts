import type { AccountLookup } from '@msg/auth';
import type { RequestHandler } from 'express';
import { type AccountParams, accountIdOf } from '../agents/account-refs.js';
import type { AccountSettingsStore } from '../fallback/account-settings.js';

/** GET /internal/v1/account-settings/{account} — defaults for an account never set. */
export function getAccountSettings(
  store: AccountSettingsStore,
  accounts: AccountLookup,
): RequestHandler<AccountParams> {
  return async (req, res) => {
    res.json(await store.get(accountIdOf(accounts, req.params.account)));
  };
}
