import type { AccountLookup } from '@msg/auth';
import type { RequestHandler } from 'express';
import { withAccountIds } from '../agents/account-refs.js';
import type { AgentInput, AgentStore } from '../agents/agent-store.js';

/** POST /internal/v1/agents — 409 when the id is taken. */
export function createAgent(
  store: AgentStore,
  accounts: AccountLookup,
): RequestHandler<object, unknown, AgentInput & { agent_id: string; display_name: string }> {
  return async (req, res) => {
    const { agent_id, ...input } = withAccountIds(accounts, req.body);
    res.status(201).json(await store.create(agent_id, input));
  };
}
