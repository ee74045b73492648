/** RBM addresses users by E.164 number in the path: "+" then 7 to 15 digits. */
export const E164_PATTERN = /^\+[1-9]\d{6,14}$/;

export function assertE164(phone: string): void {
  if (!E164_PATTERN.test(phone)) {
    throw new RangeError(`phone: expected an E.164 number such as +447700900123, got "${phone}"`);
  }
}

/** `/v1/phones/{E164}` with the "+" percent-encoded (a raw "+" reads as a space in some stacks). */
export function phonePath(phone: string): string {
  assertE164(phone);
  return `v1/phones/${encodeURIComponent(phone)}`;
}
