import type { components } from '@msg/contracts/callbacks';
import type { SigningSecretView } from '../signing/signing-secrets.js';

export type SigningSecretBody = components['schemas']['SigningSecret'];

/** The API's SigningSecret of a stored secret. */
export function signingSecretBody(view: SigningSecretView): SigningSecretBody {
  return {
    secret: view.secret,
    created_at: view.createdAt.toISOString(),
    previous_secret_expires_at: view.previousExpiresAt?.toISOString() ?? null,
  };
}
