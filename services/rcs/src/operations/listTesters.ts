import type { RequestHandler } from 'express';
import { queryAgent, type TesterDeps } from '../testers/tester-access.js';

/** GET /rcs/v1/testers?agent_id= — the agent's testers. */
export function listTesters({ agents, testers }: TesterDeps): RequestHandler {
  return async (req, res) => {
    const agent = await queryAgent(req, agents);
    const list = await testers.list(agent.id);
    res.json({ testers: list, total_count: list.length });
  };
}
