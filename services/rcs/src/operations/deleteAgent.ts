import type { RequestHandler } from 'express';
import type { AgentParams } from '../agents/account-refs.js';
import type { AgentStore } from '../agents/agent-store.js';

/** DELETE /internal/v1/agents/{agent_id} */
export function deleteAgent(store: AgentStore): RequestHandler<AgentParams> {
  return async (req, res) => {
    await store.remove(req.params.agent_id);
    res.status(204).end();
  };
}
