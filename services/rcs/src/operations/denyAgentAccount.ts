import { type AccountLookup, findAccount } from '@msg/auth';
import type { RequestHandler } from 'express';
import { type AgentAccountParams, unknownAccount } from '../agents/account-refs.js';
import type { AgentStore } from '../agents/agent-store.js';

/** DELETE /internal/v1/agents/{agent_id}/accounts/{account} — it may no longer. */
export function denyAgentAccount(
  store: AgentStore,
  accounts: AccountLookup,
): RequestHandler<AgentAccountParams> {
  return async (req, res) => {
    const { account } = req.params;
    const known = findAccount(accounts, account);
    const { agent, removed } = await store.deny(req.params.agent_id, known?.id ?? account);
    // An id no longer known here (a stale entry) is still removed; a name of nothing is a 404.
    if (!known && !removed) throw unknownAccount(account);
    res.json(agent);
  };
}
