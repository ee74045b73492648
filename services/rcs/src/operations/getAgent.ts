import type { RequestHandler } from 'express';
import type { AgentParams } from '../agents/account-refs.js';
import type { AgentStore } from '../agents/agent-store.js';

/** GET /internal/v1/agents/{agent_id} */
export function getAgent(store: AgentStore): RequestHandler<AgentParams> {
  return async (req, res) => {
    res.json(await store.get(req.params.agent_id));
  };
}
