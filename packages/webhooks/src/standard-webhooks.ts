import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/**
 * Customer callbacks are signed by the Standard Webhooks scheme (https://www.standardwebhooks.com):
 * `webhook-id` (the callback's id, the same on every retry, so receivers can dedupe),
 * `webhook-timestamp` (Unix seconds of this attempt) and `webhook-signature`
 * (`v1,<base64 HMAC-SHA256 of "id.timestamp.content">`, one per secret, space-separated). The
 * timestamp is signed, so a receiver that refuses old ones (the package's verifier allows 5
 * minutes) cannot be fed a recorded callback again.
 */
export const WEBHOOK_ID_HEADER = 'webhook-id';
export const WEBHOOK_TIMESTAMP_HEADER = 'webhook-timestamp';
export const WEBHOOK_SIGNATURE_HEADER = 'webhook-signature';

export const SIGNING_SECRET_PREFIX = 'whsec_';
/** 256 bits, the HMAC-SHA256 block's worth; the scheme asks for 24 to 64 bytes. */
const SECRET_BYTES = 32;

/** A new signing secret: `whsec_` + base64 of 32 random bytes. */
export function generateSigningSecret(): string {
  return `${SIGNING_SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/** How one callback is signed: its id and every secret that signs it now (current first). */
export interface CallbackSigning {
  /** The callback's id: stable across retries. */
  id: string;
  /** `whsec_` secrets; two while a rotation's grace period runs. */
  secrets: readonly string[];
}

/**
 * What is signed: a POST's raw body (empty when it has none); for a GET, which has no body and
 * carries its data in the query, the query string exactly as sent, without the leading `?`
 * (empty when there is none).
 */
export function signedContent(method: 'GET' | 'POST', url: URL, body: string | undefined): string {
  return method === 'POST' ? (body ?? '') : url.search.replace(/^\?/, '');
}

/** The three Standard Webhooks headers of one attempt of `signing.id` carrying `content`. */
export function signatureHeaders(
  signing: CallbackSigning,
  content: string,
  at: Date = new Date(),
): Record<string, string> {
  if (signing.secrets.length === 0) throw new RangeError('a callback needs a secret to sign it');
  const signatures = signing.secrets.map((secret) =>
    new Webhook(secret).sign(signing.id, at, content),
  );
  return {
    [WEBHOOK_ID_HEADER]: signing.id,
    [WEBHOOK_TIMESTAMP_HEADER]: String(Math.floor(at.getTime() / 1000)),
    [WEBHOOK_SIGNATURE_HEADER]: signatures.join(' '),
  };
}
