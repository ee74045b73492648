import { requireAccount } from '@msg/auth';
import type { RequestHandler } from 'express';
import type { SigningSecretStore } from '../signing/signing-secrets.js';
import { signingSecretBody } from './signing-secret-body.js';

/** GET /v1/callbacks/signing-secret — the caller's own secret, made on first use. */
export function getCallbackSigningSecret(secrets: SigningSecretStore): RequestHandler {
  return async (req, res) => {
    const account = requireAccount(req);
    res.set('cache-control', 'no-store').json(signingSecretBody(await secrets.current(account.id)));
  };
}
