// Cost of verifying an API key: a full scrypt (cold) against the short-lived verification cache.
import { createCredentialVerifier, generateApiKey, hashSecret } from '@msg/auth';
import { accountState } from '@msg/testing';

export async function run() {
  const key = generateApiKey();
  const account = accountState({
    name: 'bench',
    apiKeys: [{ id: 'k', hash: await hashSecret(key), createdAt: new Date().toISOString() }],
    rateLimit: { perSecond: 1, burst: 1 },
  });
  const directory = { byId: () => account, byName: () => account };
  const rows = [];
  for (const [name, ttl, count] of [
    ['cold (cache off): full scrypt each time', 0, 20],
    ['warm (cache on)', 60_000, 50_000],
  ]) {
    const verifier = createCredentialVerifier({ directory, cacheTtlMs: ttl });
    if (ttl > 0) await verifier.verifyApiKey('bench', key);
    const started = process.hrtime.bigint();
    for (let i = 0; i < count; i += 1) {
      if (!(await verifier.verifyApiKey('bench', key))) throw new Error('verification failed');
    }
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    rows.push({
      name,
      verifications: count,
      perSecond: Math.round((count / ms) * 1000),
      meanMs: (ms / count).toFixed(3),
    });
  }
  return { title: 'API key verification (scrypt N=2^15)', rows };
}
