import { createHmac, randomBytes } from 'node:crypto';

/** Spec 5 rule 4. */
export const WEBHOOK_SIGNATURE_HEADER = 'X-Webhook-Signature';

/** Spec 5 rule 5: 64 hexadecimal characters (32 random bytes). */
export function newWebhookSecret(): string {
  return randomBytes(32).toString('hex');
}

/** Hex HMAC-SHA256 of the exact bytes sent, keyed with the webhook's secret (spec 5 rule 4). */
export function signWebhookBody(secret: string, rawBody: string): string {
  return createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex');
}
