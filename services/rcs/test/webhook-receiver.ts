import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceivedCallback } from '@msg/testing';

/**
 * What a customer's receiver does (spec 5 rule 4): recompute the hex HMAC-SHA256 of the raw body
 * with the secret and compare in constant time. Written here independently of the service's code.
 */
export function signatureValid(secret: string, received: ReceivedCallback): boolean {
  const given = Buffer.from(String(received.headers['x-webhook-signature'] ?? ''), 'utf8');
  const expected = Buffer.from(
    createHmac('sha256', secret).update(received.body, 'utf8').digest('hex'),
    'utf8',
  );
  return given.length === expected.length && timingSafeEqual(given, expected);
}
