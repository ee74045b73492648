import { requireAccount } from '@msg/auth';
import { ForbiddenError, ValidationError } from '@msg/http';
import type { Request } from 'express';
import type { AgentStore, SendingAgent } from '../agents/agent-store.js';

/**
 * The agent a tester operation names, with the access rules of sending: an agent that does not
 * exist is a 400 naming `agent_id` where it was given (`unknown_agent`), one the account may not
 * send as is a 403.
 */
export async function testerAgent(
  req: Request,
  agents: AgentStore,
  agentId: string,
  where: 'query' | 'body',
): Promise<SendingAgent> {
  const account = requireAccount(req);
  const agent = await agents.forSending(agentId, account.id);
  if (!agent) throw ValidationError.field([where, 'agent_id'], 'unknown_agent', 'no such agent');
  if (!agent.allows)
    throw new ForbiddenError(`not allowed to manage the testers of agent ${agent.id}`);
  return agent;
}
