import type { RequestHandler } from 'express';
import type { AccountSettingsStore } from '../fallback/account-settings.js';

/** GET /internal/v1/account-settings */
export function listAccountSettings(store: AccountSettingsStore): RequestHandler {
  return async (_req, res) => {
    res.json({ accounts: await store.list() });
  };
}
