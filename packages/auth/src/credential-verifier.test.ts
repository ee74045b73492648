import { beforeAll, describe, expect, it } from 'vitest';
import { createStaticDirectory, FAST_SCRYPT, makeAccount } from '../test/support/accounts.js';
import { createCredentialVerifier } from './credential-verifier.js';
import { hashSecret, verifySecret } from './secret-hash.js';

/** The real scrypt comparison, counted. */
function countingVerify() {
  const calls: string[] = [];
  return {
    calls,
    verify: (secret: string, stored: string) => {
      calls.push(stored);
      return verifySecret(secret, stored);
    },
  };
}

let passwordHash: string;
let keyHashes: { old: string; current: string };

beforeAll(async () => {
  passwordHash = await hashSecret('S3cret:pass', FAST_SCRYPT);
  keyHashes = {
    old: await hashSecret('msgk_old', FAST_SCRYPT),
    current: await hashSecret('msgk_current', FAST_SCRYPT),
  };
});

describe('verifyPassword', () => {
  it('when the name differs only in case, then the account is found; the password must match exactly', async () => {
    const account = makeAccount({ name: 'Acme', passwordHash });
    const verifier = createCredentialVerifier({ directory: createStaticDirectory(account) });

    expect((await verifier.verifyPassword('aCME', 'S3cret:pass'))?.id).toBe(account.id);
    expect(await verifier.verifyPassword('acme', 's3cret:pass')).toBeNull();
    expect(await verifier.verifyPassword('acme', 'S3cret:pass ')).toBeNull();
  });

  it('when the same valid password is sent again, then the cache answers without another scrypt', async () => {
    const account = makeAccount({ passwordHash });
    const counter = countingVerify();
    const verifier = createCredentialVerifier({
      directory: createStaticDirectory(account),
      verify: counter.verify,
    });

    await verifier.verifyPassword('acme', 'S3cret:pass');
    await verifier.verifyPassword('acme', 'S3cret:pass');
    await verifier.verifyPassword('ACME', 'S3cret:pass');

    expect(counter.calls).toHaveLength(1);
  });

  it('when a wrong password is sent repeatedly, then every attempt pays a scrypt (failures are not cached)', async () => {
    const account = makeAccount({ passwordHash });
    const counter = countingVerify();
    const verifier = createCredentialVerifier({
      directory: createStaticDirectory(account),
      verify: counter.verify,
    });

    await verifier.verifyPassword('acme', 'wrong');
    await verifier.verifyPassword('acme', 'wrong');

    expect(counter.calls).toHaveLength(2);
  });

  it('when the password is changed, then the cached old password stops working and the new one verifies', async () => {
    const account = makeAccount({ passwordHash });
    const directory = createStaticDirectory(account);
    const counter = countingVerify();
    const verifier = createCredentialVerifier({ directory, verify: counter.verify });
    expect(await verifier.verifyPassword('acme', 'S3cret:pass')).not.toBeNull();

    const newHash = await hashSecret('n3w', FAST_SCRYPT);
    directory.put({ ...account, passwordHash: newHash, version: 2 });

    expect(await verifier.verifyPassword('acme', 'S3cret:pass')).toBeNull();
    expect(await verifier.verifyPassword('acme', 'n3w')).not.toBeNull();
    expect(counter.calls).toEqual([passwordHash, newHash, newHash]);
  });

  it('when the account changes without a password change, then the cache still hits and returns the new state', async () => {
    const account = makeAccount({ passwordHash });
    const directory = createStaticDirectory(account);
    const counter = countingVerify();
    const verifier = createCredentialVerifier({ directory, verify: counter.verify });
    await verifier.verifyPassword('acme', 'S3cret:pass');

    directory.put({ ...account, status: 'disabled', version: 2 });

    expect((await verifier.verifyPassword('acme', 'S3cret:pass'))?.status).toBe('disabled');
    expect(counter.calls).toHaveLength(1);
  });

  it('when the cache TTL has passed, then the password is verified with scrypt again', async () => {
    let now = 0;
    const account = makeAccount({ passwordHash });
    const counter = countingVerify();
    const verifier = createCredentialVerifier({
      directory: createStaticDirectory(account),
      verify: counter.verify,
      cacheTtlMs: 1000,
      now: () => now,
    });
    await verifier.verifyPassword('acme', 'S3cret:pass');

    now = 1500;
    await verifier.verifyPassword('acme', 'S3cret:pass');

    expect(counter.calls).toHaveLength(2);
  });

  it('when many identical requests arrive at once, then they share one scrypt', async () => {
    const account = makeAccount({ passwordHash });
    const counter = countingVerify();
    const verifier = createCredentialVerifier({
      directory: createStaticDirectory(account),
      verify: counter.verify,
    });

    const results = await Promise.all(
      Array.from({ length: 5 }, () => verifier.verifyPassword('acme', 'S3cret:pass')),
    );

    expect(results.every((result) => result?.id === account.id)).toBe(true);
    expect(counter.calls).toHaveLength(1);
  });

  it('when the account is disabled and the password is right, then the account is returned for the guard to refuse', async () => {
    const account = makeAccount({ passwordHash, status: 'disabled' });
    const verifier = createCredentialVerifier({ directory: createStaticDirectory(account) });

    expect((await verifier.verifyPassword('acme', 'S3cret:pass'))?.status).toBe('disabled');
    expect(await verifier.verifyPassword('acme', 'wrong')).toBeNull();
  });

  it('when the name is unknown or the account has no password, then null, after a decoy scrypt', async () => {
    const account = makeAccount({ name: 'keyonly', passwordHash: null });
    const counter = countingVerify();
    const verifier = createCredentialVerifier({
      directory: createStaticDirectory(account),
      verify: counter.verify,
    });

    expect(await verifier.verifyPassword('nobody', 'pw')).toBeNull();
    expect(await verifier.verifyPassword('keyonly', 'pw')).toBeNull();
    expect(counter.calls).toHaveLength(2);
  });

  it('when the password is empty or absurdly long, then null without any scrypt', async () => {
    const account = makeAccount({ passwordHash });
    const counter = countingVerify();
    const verifier = createCredentialVerifier({
      directory: createStaticDirectory(account),
      verify: counter.verify,
    });

    expect(await verifier.verifyPassword('acme', '')).toBeNull();
    expect(await verifier.verifyPassword('acme', 'x'.repeat(5000))).toBeNull();
    expect(counter.calls).toHaveLength(0);
  });

  it('when the password or key carries trailing NULs or another control character, then null without any scrypt; the exact one passes', async () => {
    const account = makeAccount({
      name: 'acme',
      passwordHash,
      apiKeys: [{ id: 'k1', hash: keyHashes.current, createdAt: '2025-01-01T00:00:00Z' }],
    });
    const counter = countingVerify();
    const verifier = createCredentialVerifier({
      directory: createStaticDirectory(account),
      verify: counter.verify,
    });

    for (const password of ['S3cret:pass\0', 'S3cret:pass\0\0', 'S3cret:pass\n']) {
      expect(await verifier.verifyPassword('acme', password)).toBeNull();
    }
    for (const key of ['msgk_current\0', 'msgk_current\0\0', '\tmsgk_current']) {
      expect(await verifier.verifyApiKey('acme', key)).toBeNull();
    }
    expect(counter.calls).toHaveLength(0);
    expect((await verifier.verifyPassword('acme', 'S3cret:pass'))?.id).toBe(account.id);
    expect((await verifier.verifyApiKey('acme', 'msgk_current'))?.id).toBe(account.id);
  });

  it('when the password changes while scrypt is running, then the stale success is refused', async () => {
    const account = makeAccount({ passwordHash });
    const directory = createStaticDirectory(account);
    const verifier = createCredentialVerifier({
      directory,
      verify: async (secret, stored) => {
        const ok = await verifySecret(secret, stored);
        directory.put({ ...account, passwordHash: 'scrypt$changed', version: 2 });
        return ok;
      },
    });

    expect(await verifier.verifyPassword('acme', 'S3cret:pass')).toBeNull();
  });
});

describe('verifyApiKey', () => {
  it('when any current key of the account is sent with its name, then the account is returned', async () => {
    const account = makeAccount({
      name: 'RcsClient',
      apiKeys: [
        { id: 'k1', hash: keyHashes.old, createdAt: '2025-01-01T00:00:00Z' },
        { id: 'k2', hash: keyHashes.current, createdAt: '2025-02-01T00:00:00Z' },
      ],
    });
    const verifier = createCredentialVerifier({ directory: createStaticDirectory(account) });

    expect((await verifier.verifyApiKey('rcsclient', 'msgk_old'))?.id).toBe(account.id);
    expect((await verifier.verifyApiKey('RcsClient', 'msgk_current'))?.id).toBe(account.id);
    expect(await verifier.verifyApiKey('RcsClient', 'msgk_other')).toBeNull();
  });

  it('when the client id is the account id rather than its name, then it is accepted too', async () => {
    const account = makeAccount({
      apiKeys: [{ id: 'k', hash: keyHashes.current, createdAt: '2025-01-01T00:00:00Z' }],
    });
    const verifier = createCredentialVerifier({ directory: createStaticDirectory(account) });

    expect((await verifier.verifyApiKey(account.id, 'msgk_current'))?.id).toBe(account.id);
  });

  it('when a key is revoked (removed from the account), then it stops working even if it was cached', async () => {
    const account = makeAccount({
      apiKeys: [
        { id: 'k1', hash: keyHashes.old, createdAt: '2025-01-01T00:00:00Z' },
        { id: 'k2', hash: keyHashes.current, createdAt: '2025-02-01T00:00:00Z' },
      ],
    });
    const directory = createStaticDirectory(account);
    const verifier = createCredentialVerifier({ directory });
    expect(await verifier.verifyApiKey('acme', 'msgk_old')).not.toBeNull();

    directory.put({
      ...account,
      apiKeys: account.apiKeys.filter((key) => key.id !== 'k1'),
      version: 2,
    });

    expect(await verifier.verifyApiKey('acme', 'msgk_old')).toBeNull();
    expect(await verifier.verifyApiKey('acme', 'msgk_current')).not.toBeNull();
  });

  it('when a cached key is sent again, then no key is scrypted, not even the ones listed before it', async () => {
    const account = makeAccount({
      apiKeys: [
        { id: 'k1', hash: keyHashes.old, createdAt: '2025-01-01T00:00:00Z' },
        { id: 'k2', hash: keyHashes.current, createdAt: '2025-02-01T00:00:00Z' },
      ],
    });
    const counter = countingVerify();
    const verifier = createCredentialVerifier({
      directory: createStaticDirectory(account),
      verify: counter.verify,
    });

    await verifier.verifyApiKey('acme', 'msgk_current');
    expect(counter.calls).toEqual([keyHashes.old, keyHashes.current]);
    await verifier.verifyApiKey('acme', 'msgk_current');

    expect(counter.calls).toHaveLength(2);
  });

  it('when the account has no keys or is unknown, then null', async () => {
    const account = makeAccount({ apiKeys: [] });
    const verifier = createCredentialVerifier({ directory: createStaticDirectory(account) });

    expect(await verifier.verifyApiKey('acme', 'msgk_current')).toBeNull();
    expect(await verifier.verifyApiKey('ghost', 'msgk_current')).toBeNull();
  });
});
