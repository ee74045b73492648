import type { AccountLookup } from '@msg/auth';
import type { RequestHandler } from 'express';
import { type AgentAccountParams, accountIdOf } from '../agents/account-refs.js';
import type { AgentStore } from '../agents/agent-store.js';

/** PUT /internal/v1/agents/{agent_id}/accounts/{account} — the account may send as the agent. */
export function allowAgentAccount(
  store: AgentStore,
  accounts: AccountLookup,
): RequestHandler<AgentAccountParams> {
  return async (req, res) => {
    const accountId = accountIdOf(accounts, req.params.account);
    res.json(await store.allow(req.params.agent_id, accountId));
  };
}
