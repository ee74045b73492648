import type { AccountLookup } from '@msg/auth';
import type { RequestHandler } from 'express';
import { type AccountParams, accountIdOf } from '../agents/account-refs.js';
import type { AccountSettingsStore } from '../fallback/account-settings.js';

/** PATCH /internal/v1/account-settings/{account} — 404 for an account this service does not know. */
export function updateAccountSettings(
  store: AccountSettingsStore,
  accounts: AccountLookup,
): RequestHandler<AccountParams, unknown, { sms_fallback: boolean }> {
  return async (req, res) => {
    res.json(await store.update(accountIdOf(accounts, req.params.account), req.body));
  };
}
