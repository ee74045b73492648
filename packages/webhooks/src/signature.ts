import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Webhook-Signature';
export const TIMESTAMP_HEADER = 'X-Webhook-Timestamp';

/** `sha256=<hex HMAC-SHA256 of payload>`: the value of X-Webhook-Signature. */
export function signPayload(secret: string, payload: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(payload).digest('hex')}`;
}

/**
 * Checks an X-Webhook-Signature value against the payload, in constant time so that a caller
 * cannot learn the right signature byte by byte from response times.
 */
export function verifySignature(
  secret: string,
  payload: string | Buffer,
  signature: string,
): boolean {
  const expected = Buffer.from(signPayload(secret, payload));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
