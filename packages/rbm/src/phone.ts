import { isStrictE164 } from '@msg/phone/e164';

/**
 * RBM addresses users by E.164 number in the path, by the platform's one rule (@msg/phone/e164:
 * "+" then 7 to 15 digits), which the rcs OpenAPI document states too: a number that passes the
 * interface never throws here.
 */
export function assertE164(phone: string): void {
  if (!isStrictE164(phone)) {
    throw new RangeError(`phone: expected an E.164 number such as +447700900123, got "${phone}"`);
  }
}

/** `/v1/phones/{E164}` with the "+" percent-encoded (a raw "+" reads as a space in some stacks). */
export function phonePath(phone: string): string {
  assertE164(phone);
  return `v1/phones/${encodeURIComponent(phone)}`;
}
