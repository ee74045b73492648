import type { AccountLookup } from '@msg/auth';
import type { RequestHandler } from 'express';
import { type AgentParams, withAccountIds } from '../agents/account-refs.js';
import type { AgentInput, AgentStore } from '../agents/agent-store.js';

/** PATCH /internal/v1/agents/{agent_id} */
export function updateAgent(
  store: AgentStore,
  accounts: AccountLookup,
): RequestHandler<AgentParams, unknown, AgentInput> {
  return async (req, res) => {
    res.json(await store.update(req.params.agent_id, withAccountIds(accounts, req.body)));
  };
}
