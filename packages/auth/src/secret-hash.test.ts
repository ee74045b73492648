import { describe, expect, it } from 'vitest';
import { FAST_SCRYPT } from '../test/support/accounts.js';
import { API_KEY_PREFIX, generateApiKey } from './api-key.js';
import {
  DEFAULT_SCRYPT_PARAMS,
  hashSecret,
  isAcceptableSecret,
  verifySecret,
} from './secret-hash.js';

describe('hashSecret / verifySecret', () => {
  it('when a secret is hashed with the default cost, then it verifies and a wrong secret does not', async () => {
    const stored = await hashSecret('correct horse battery staple');

    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/]+={0,2}\$[A-Za-z0-9+/]+={0,2}$/);
    expect(await verifySecret('correct horse battery staple', stored)).toBe(true);
    expect(await verifySecret('correct horse battery staplE', stored)).toBe(false);
  });

  it('when the same secret is hashed twice, then the salts differ and so do the hashes', async () => {
    const [a, b] = await Promise.all([
      hashSecret('same', FAST_SCRYPT),
      hashSecret('same', FAST_SCRYPT),
    ]);

    expect(a).not.toBe(b);
    expect(a.split('$')[4]).not.toBe(b.split('$')[4]);
  });

  it('when a hash was made with other parameters, then verification uses the ones stored in it', async () => {
    const stored = await hashSecret('pw', { N: 2048, r: 4, p: 2 });

    expect(stored.startsWith('scrypt$2048$4$2$')).toBe(true);
    expect(await verifySecret('pw', stored)).toBe(true);
  });

  it('when a secret is empty or has a colon, then it still round-trips exactly', async () => {
    const stored = await hashSecret('a:b:c', FAST_SCRYPT);

    expect(await verifySecret('a:b:c', stored)).toBe(true);
    expect(await verifySecret('a', stored)).toBe(false);
  });

  it.each([
    ['empty', ''],
    ['another scheme', 'bcrypt$10$abc'],
    ['too few fields', 'scrypt$1024$8$1$c2FsdA=='],
    ['N not a power of two', 'scrypt$1000$8$1$c2FsdHNhbHQ=$aGFzaGhhc2hoYXNoaGFzaA=='],
    ['N absurdly large', 'scrypt$1073741824$8$1$c2FsdHNhbHQ=$aGFzaGhhc2hoYXNoaGFzaA=='],
    ['r zero', 'scrypt$1024$0$1$c2FsdHNhbHQ=$aGFzaGhhc2hoYXNoaGFzaA=='],
    ['salt not base64', 'scrypt$1024$8$1$not*base64$aGFzaGhhc2hoYXNoaGFzaA=='],
    ['hash too short', 'scrypt$1024$8$1$c2FsdHNhbHQ=$aGFzaA=='],
  ])(
    'when the stored hash is malformed (%s), then verification is false, not an error',
    async (_case, stored) => {
      await expect(verifySecret('pw', stored)).resolves.toBe(false);
    },
  );

  it('when a secret differs from the stored one only by trailing NULs, then it does not verify (HMAC would pad it alike)', async () => {
    const password = await hashSecret('password', FAST_SCRYPT);
    const key = await hashSecret('key', FAST_SCRYPT);

    expect(await verifySecret('password', password)).toBe(true);
    expect(await verifySecret('key', key)).toBe(true);
    expect(await verifySecret('password\0', password)).toBe(false);
    expect(await verifySecret('key\0\0', key)).toBe(false);
  });

  it('when a secret holds a lone surrogate, then it does not verify against the U+FFFD it would encode to', async () => {
    const stored = await hashSecret('pass\ufffd', FAST_SCRYPT);

    expect(await verifySecret('pass\ufffd', stored)).toBe(true);
    expect(await verifySecret('pass\ud800', stored)).toBe(false);
  });

  it.each([
    ['NUL', 'pw\0'],
    ['a tab', 'p\tw'],
    ['CR LF', 'pw\r\n'],
    ['DEL', 'pw\x7f'],
    ['a C1 control', 'pw\x85'],
    ['a lone surrogate', 'pw\udc00'],
  ])(
    'when a secret holds %s, then it is not acceptable and is never hashed',
    async (_case, secret) => {
      expect(isAcceptableSecret(secret)).toBe(false);
      await expect(hashSecret(secret, FAST_SCRYPT)).rejects.toThrow(RangeError);
    },
  );

  it('when a secret holds printable unicode, spaces and an astral character, then it is acceptable', () => {
    expect(isAcceptableSecret('pä ss:wörd 😀')).toBe(true);
  });

  it('when hashing is asked for out-of-bounds parameters, then it refuses', async () => {
    await expect(hashSecret('pw', { N: 1000, r: 8, p: 1 })).rejects.toThrow(RangeError);
  });

  it('when the default parameters are read, then they are frozen', () => {
    expect(Object.isFrozen(DEFAULT_SCRYPT_PARAMS)).toBe(true);
  });
});

describe('generateApiKey', () => {
  it('when keys are generated, then they carry the prefix, 256 bits of base64url and never repeat', () => {
    const keys = Array.from({ length: 100 }, generateApiKey);

    for (const key of keys) {
      expect(key.startsWith(API_KEY_PREFIX)).toBe(true);
      expect(key.slice(API_KEY_PREFIX.length)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    }
    expect(new Set(keys).size).toBe(keys.length);
  });
});
