import type { RequestHandler } from 'express';
import type { AgentStore } from '../agents/agent-store.js';

/** GET /internal/v1/agents */
export function listAgents(store: AgentStore): RequestHandler {
  return async (_req, res) => {
    res.json({ agents: await store.list() });
  };
}
