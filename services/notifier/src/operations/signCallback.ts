import { randomUUID } from 'node:crypto';
import type { components } from '@msg/contracts/internal/notifier';
import { signatureHeaders } from '@msg/webhooks';
import type { RequestHandler } from 'express';
import type { SigningSecretStore } from '../signing/signing-secrets.js';

type SignatureRequest = components['schemas']['SignatureRequest'];

/**
 * POST /internal/v1/signatures — the Standard Webhooks headers of one attempt of a callback the
 * caller sends itself (the RCS webhook test event), signed as the delivery loop signs: the
 * account's secrets stay here, only their signatures leave.
 */
export function signCallback(
  secrets: SigningSecretStore,
): RequestHandler<object, unknown, SignatureRequest> {
  return async (req, res) => {
    const { account_id: accountId, body } = req.body;
    const signing = (await secrets.signingSecrets([accountId])).get(accountId);
    // Sealed under another key, or altered: a server fault, never an unsigned callback.
    if (!signing) throw new Error('the account signing secrets cannot be opened');
    const headers = signatureHeaders({ id: `msg_${randomUUID()}`, secrets: signing }, body);
    // The document's SignatureAnswer: exactly the three headers (checked on responses in tests).
    res.set('cache-control', 'no-store').json({ headers });
  };
}
