import { randomBytes } from 'node:crypto';
import type { AccountState } from '@msg/contracts';
import type { AccountLookup } from './account-directory.js';
import { hashSecret, isAcceptableSecret, verifySecret } from './secret-hash.js';
import { createVerifiedSecretCache } from './verified-secret-cache.js';

/**
 * Both methods resolve to the account when the secret matches, else null.
 *
 * A DISABLED account is returned too when its secret matches: "disabled" is a refusal other
 * credentials would not fix (403, or 401 on the legacy interface), so the decision belongs to the
 * `requireActive()` guard of each service, not here. A wrong secret never reveals the status.
 */
export interface CredentialVerifier {
  /** `name` is matched case-insensitively, `password` exactly. */
  verifyPassword(name: string, password: string): Promise<AccountState | null>;
  /** `clientId` is the account name (case-insensitive) or, failing that, the account id; any current key of it matches. */
  verifyApiKey(clientId: string, apiKey: string): Promise<AccountState | null>;
}

export interface CredentialVerifierOptions {
  directory: AccountLookup;
  /** How long a verified secret is remembered; 0 disables the cache. */
  cacheTtlMs?: number;
  maxEntries?: number;
  /** The slow comparison; injectable so tests can count scrypt runs. */
  verify?: (secret: string, storedHash: string) => Promise<boolean>;
  now?: () => number;
}

// Far beyond any real password or key; refuses megabyte "passwords" before they reach scrypt.
const MAX_SECRET_LENGTH = 1024;

/** Refused before any lookup or scrypt: empty, huge, or not a secret we could have issued. */
function refusedOutright(secret: string): boolean {
  return secret === '' || secret.length > MAX_SECRET_LENGTH || !isAcceptableSecret(secret);
}

export function createCredentialVerifier({
  directory,
  cacheTtlMs = 60_000,
  maxEntries = 10_000,
  verify = verifySecret,
  now,
}: CredentialVerifierOptions): CredentialVerifier {
  const cache = createVerifiedSecretCache({
    ttlMs: cacheTtlMs,
    maxEntries,
    ...(now ? { now } : {}),
  });
  // Concurrent requests with the same credentials share one scrypt instead of starting one each.
  const inFlight = new Map<string, Promise<boolean>>();
  let decoyHash: Promise<string> | undefined;

  /**
   * Unknown names cost as much as wrong passwords, so response time does not reveal which account
   * names exist. The decoy is hashed once, lazily, from a random secret nobody knows.
   */
  async function spendDecoyVerification(secret: string): Promise<void> {
    decoyHash ??= hashSecret(randomBytes(16).toString('hex'));
    await verify(secret, await decoyHash);
  }

  async function matches(accountId: string, storedHash: string, secret: string): Promise<boolean> {
    const digest = cache.digest(accountId, storedHash, secret);
    if (cache.has(digest)) return true;
    let pending = inFlight.get(digest);
    if (!pending) {
      pending = verify(secret, storedHash).finally(() => inFlight.delete(digest));
      inFlight.set(digest, pending);
    }
    const ok = await pending;
    if (ok) cache.add(digest);
    return ok;
  }

  /** The account as it is now, if the hash we verified against is still one of its credentials. */
  function stillCurrent(
    id: string,
    storedHash: string,
    holds: (account: AccountState, hash: string) => boolean,
  ): AccountState | null {
    const current = directory.byId(id);
    return current && holds(current, storedHash) ? current : null;
  }

  return {
    async verifyPassword(name, password) {
      if (refusedOutright(password)) return null;
      const account = directory.byName(name);
      if (!account?.passwordHash) {
        await spendDecoyVerification(password);
        return null;
      }
      const storedHash = account.passwordHash;
      if (!(await matches(account.id, storedHash, password))) return null;
      // The account may have changed while scrypt ran; answer with its current state.
      return stillCurrent(account.id, storedHash, (current, hash) => current.passwordHash === hash);
    },

    async verifyApiKey(clientId, apiKey) {
      if (refusedOutright(apiKey)) return null;
      const account = directory.byName(clientId) ?? directory.byId(clientId);
      if (!account || account.apiKeys.length === 0) {
        await spendDecoyVerification(apiKey);
        return null;
      }
      const hashes = account.apiKeys.map((key) => key.hash);
      // Cheap pass first: a cached key must not wait behind a scrypt of an older key.
      let matched = hashes.find((hash) => cache.has(cache.digest(account.id, hash, apiKey)));
      for (const hash of hashes) {
        if (matched) break;
        if (await matches(account.id, hash, apiKey)) matched = hash;
      }
      if (!matched) return null;
      return stillCurrent(account.id, matched, (current, hash) =>
        current.apiKeys.some((key) => key.hash === hash),
      );
    },
  };
}
