import { requireAccount } from '@msg/auth';
import type { components } from '@msg/contracts/callbacks';
import type { RequestHandler } from 'express';
import type { SigningSecretStore } from '../signing/signing-secrets.js';
import { signingSecretBody } from './signing-secret-body.js';

type RotateBody = components['schemas']['RotateSigningSecretRequest'];

/**
 * POST /v1/callbacks/signing-secret/rotate — a new secret for the caller; the replaced one signs
 * beside it for `previous_secret_expires_in` seconds (the document bounds it), else `graceMs`.
 */
export function rotateCallbackSigningSecret(
  secrets: SigningSecretStore,
  graceMs: number,
): RequestHandler<object, unknown, RotateBody | undefined> {
  return async (req, res) => {
    const account = requireAccount(req);
    const seconds = req.body?.previous_secret_expires_in;
    const rotated = await secrets.rotate(
      account.id,
      seconds === undefined ? graceMs : seconds * 1000,
    );
    res.set('cache-control', 'no-store').json(signingSecretBody(rotated));
  };
}
