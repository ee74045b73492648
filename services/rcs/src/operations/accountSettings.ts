import type { AccountLookup } from '@msg/auth';
import type { RequestHandler } from 'express';
import { accountIdOf } from '../agents/account-refs.js';
import type { AccountSettingsStore } from '../fallback/account-settings.js';

/** The account's id or name (as `pnpm admin` takes it); stored and shown by id. */
type AccountParams = { account: string };

/** GET /internal/v1/account-settings */
export function listAccountSettings(store: AccountSettingsStore): RequestHandler {
  return async (_req, res) => {
    res.json({ accounts: await store.list() });
  };
}

/** GET /internal/v1/account-settings/{account} — defaults for an account never set. */
export function getAccountSettings(
  store: AccountSettingsStore,
  accounts: AccountLookup,
): RequestHandler<AccountParams> {
  return async (req, res) => {
    res.json(await store.get(accountIdOf(accounts, req.params.account)));
  };
}

/** PATCH /internal/v1/account-settings/{account} — 404 for an account this service does not know. */
export function updateAccountSettings(
  store: AccountSettingsStore,
  accounts: AccountLookup,
): RequestHandler<AccountParams, unknown, { sms_fallback: boolean }> {
  return async (req, res) => {
    res.json(await store.update(accountIdOf(accounts, req.params.account), req.body));
  };
}
