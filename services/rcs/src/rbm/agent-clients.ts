import { createRbmClient, parseServiceAccountKey, type RbmClient } from '@msg/rbm';
import type { AgentStore } from '../agents/agent-store.js';
import type { RbmSettings } from './config.js';

/** An agent that has no RBM credentials stored cannot reach the platform. */
export class AgentWithoutCredentialsError extends Error {
  constructor(readonly agentId: string) {
    super(`agent ${agentId} has no RBM credentials`);
    this.name = 'AgentWithoutCredentialsError';
  }
}

export interface AgentClients {
  /** A client signed with the agent's service account (cached; tokens are cached by the client). */
  forAgent(agentId: string): Promise<RbmClient>;
  /** Drops a cached client: its credentials changed or were removed. */
  forget(agentId: string): void;
}

/**
 * One RBM client per agent, built from the agent's sealed service-account key. Clients are kept
 * for `ttlMs` so that credentials an operator replaces take effect without a restart, while the
 * hot path neither opens the key nor signs a new JWT per message.
 */
export function createAgentClients(
  agents: Pick<AgentStore, 'credentials'>,
  settings: RbmSettings,
  options: { ttlMs?: number; now?: () => number } = {},
): AgentClients {
  const ttlMs = options.ttlMs ?? 60_000;
  const now = options.now ?? Date.now;
  const cache = new Map<string, { client: Promise<RbmClient>; until: number }>();

  async function build(agentId: string): Promise<RbmClient> {
    const stored = await agents.credentials(agentId);
    if (!stored) throw new AgentWithoutCredentialsError(agentId);
    return createRbmClient({
      baseUrl: settings.RCS_RBM_BASE_URL,
      tokenUrl: settings.RCS_RBM_TOKEN_URL,
      serviceAccount: parseServiceAccountKey(stored),
    });
  }

  return {
    forAgent(agentId) {
      const hit = cache.get(agentId);
      if (hit && hit.until > now()) return hit.client;
      const client = build(agentId);
      cache.set(agentId, { client, until: now() + ttlMs });
      // A failed build is not cached: the next call reads the credentials again.
      client.catch(() => cache.delete(agentId));
      return client;
    },
    forget(agentId) {
      cache.delete(agentId);
    },
  };
}
