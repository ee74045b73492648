import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AgentWithoutCredentialsError, createAgentClients } from './agent-clients.js';

const settings = {
  RCS_RBM_BASE_URL: 'http://127.0.0.1:1',
  RCS_RBM_TOKEN_URL: 'http://127.0.0.1:1/token',
};
const key = {
  client_email: 'agent@example.iam.gserviceaccount.com',
  private_key: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
    type: 'pkcs8',
    format: 'pem',
  }) as string,
};

describe('createAgentClients', () => {
  it('reads credentials once per ttl and again after it', async () => {
    let reads = 0;
    let clock = 0;
    const clients = createAgentClients(
      {
        credentials: async () => {
          reads++;
          return key;
        },
      },
      settings,
      {
        ttlMs: 1000,
        now: () => clock,
      },
    );
    const first = await clients.forAgent('a');
    expect(await clients.forAgent('a')).toBe(first);
    expect(reads).toBe(1);
    clock = 1001;
    expect(await clients.forAgent('a')).not.toBe(first);
    expect(reads).toBe(2);
    clients.forget('a');
    await clients.forAgent('a');
    expect(reads).toBe(3);
  });

  it('refuses an agent without credentials and does not cache the refusal', async () => {
    let stored: typeof key | null = null;
    const clients = createAgentClients({ credentials: async () => stored }, settings);
    await expect(clients.forAgent('a')).rejects.toBeInstanceOf(AgentWithoutCredentialsError);
    stored = key;
    await expect(clients.forAgent('a')).resolves.toBeDefined();
  });
});
