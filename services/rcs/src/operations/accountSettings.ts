import type { RequestHandler } from 'express';
import type { AccountSettingsStore } from '../fallback/account-settings.js';

type AccountParams = { account_id: string };

/** GET /internal/v1/account-settings */
export function listAccountSettings(store: AccountSettingsStore): RequestHandler {
  return async (_req, res) => {
    res.json({ accounts: await store.list() });
  };
}

/** GET /internal/v1/account-settings/{account_id} — defaults for an account never set. */
export function getAccountSettings(store: AccountSettingsStore): RequestHandler<AccountParams> {
  return async (req, res) => {
    res.json(await store.get(req.params.account_id));
  };
}

/** PATCH /internal/v1/account-settings/{account_id} */
export function updateAccountSettings(
  store: AccountSettingsStore,
): RequestHandler<AccountParams, unknown, { sms_fallback: boolean }> {
  return async (req, res) => {
    res.json(await store.update(req.params.account_id, req.body));
  };
}
