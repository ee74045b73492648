import { requireAccount } from '@msg/auth';
import type { Request } from 'express';
import type { AgentStore, SendingAgent } from '../agents/agent-store.js';
import { agentForClient } from '../agents/client-agent.js';

/**
 * The agent a tester operation names, with the access rules of sending (agentForClient): an
 * agent that does not exist is a 400 naming `agent_id` where it was given (`unknown_agent`), one
 * the account may not send as is a 403, a conversational one 501.
 */
export function testerAgent(
  req: Request,
  agents: AgentStore,
  agentId: string,
  where: 'query' | 'body',
): Promise<SendingAgent> {
  return agentForClient(agents, agentId, requireAccount(req).id, [where, 'agent_id']);
}
