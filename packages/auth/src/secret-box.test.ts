import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretBox, parseSecretBoxKey } from './secret-box.js';

describe('createSecretBox', () => {
  const box = createSecretBox(randomBytes(32));

  it('when a secret is sealed, then it opens to the same text and the sealed form does not contain it', () => {
    const sealed = box.seal('{"private_key":"-----BEGIN"}');
    expect(sealed).not.toContain('private_key');
    expect(box.open(sealed)).toBe('{"private_key":"-----BEGIN"}');
  });

  it('when the same secret is sealed twice, then the two forms differ (random IV)', () => {
    expect(box.seal('x')).not.toBe(box.seal('x'));
  });

  it('when the sealed value is altered or sealed under another key, then it does not open', () => {
    const sealed = box.seal('secret');
    const parts = sealed.split('.');
    parts[3] = Buffer.from('other!').toString('base64url');
    expect(() => box.open(parts.join('.'))).toThrow();
    expect(() => createSecretBox(randomBytes(32)).open(sealed)).toThrow();
    expect(() => box.open('plain text')).toThrow('not a sealed secret');
  });
});

describe('parseSecretBoxKey', () => {
  it('when the key is 64 hex characters or base64 of 32 bytes, then it is read; otherwise refused', () => {
    const key = randomBytes(32);
    expect(parseSecretBoxKey(key.toString('hex'))).toEqual(key);
    expect(parseSecretBoxKey(key.toString('base64'))).toEqual(key);
    expect(() => parseSecretBoxKey('short')).toThrow('32 bytes');
  });
});
