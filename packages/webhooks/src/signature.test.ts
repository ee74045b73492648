import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signPayload, verifySignature } from './signature.js';

describe('signPayload / verifySignature', () => {
  it('when a payload is signed, then the value is sha256=<hex HMAC-SHA256> and verifies', () => {
    const signature = signPayload('s3cret', '{"a":1}');
    const hex = createHmac('sha256', 's3cret').update('{"a":1}').digest('hex');
    expect(signature).toBe(`sha256=${hex}`);
    expect(verifySignature('s3cret', '{"a":1}', signature)).toBe(true);
  });

  it('when the payload, the secret or the signature differ, then it does not verify', () => {
    const signature = signPayload('s3cret', '{"a":1}');
    expect(verifySignature('s3cret', '{"a":2}', signature)).toBe(false);
    expect(verifySignature('other', '{"a":1}', signature)).toBe(false);
    expect(verifySignature('s3cret', '{"a":1}', signature.slice(0, -1))).toBe(false);
    expect(verifySignature('s3cret', '{"a":1}', '')).toBe(false);
  });
});
