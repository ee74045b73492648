import { ForbiddenError, NotImplementedError, ValidationError } from '@msg/http';
import type { AgentKind, AgentStore, SendingAgent } from './agent-store.js';

/**
 * Spec 7.4: 501 for a conversational agent. Every client operation that names an agent (send,
 * capability check, testers) calls this once it has found the agent, after the account's right
 * to use it is checked (403 first: a stranger learns nothing about the agent's kind).
 */
export function assertAgentSupported(agent: { kind: AgentKind }): void {
  if (agent.kind === 'conversational') {
    throw new NotImplementedError('Conversational agents are not supported yet');
  }
}

/**
 * The agent a client operation names, as `accountId` may use it: unknown is a 400 naming the
 * member at `loc` (a bad value in the request, not a missing resource at the URL), not allowed
 * for the account 403, conversational 501.
 */
export async function agentForClient(
  agents: Pick<AgentStore, 'forSending'>,
  agentId: string,
  accountId: string,
  loc: string[],
): Promise<SendingAgent> {
  const agent = await agents.forSending(agentId, accountId);
  if (!agent) {
    throw new ValidationError('Request validation failed', [
      { loc, msg: 'no such agent', type: 'unknown_agent' },
    ]);
  }
  if (!agent.allows) throw new ForbiddenError(`not allowed to send as agent ${agent.id}`);
  assertAgentSupported(agent);
  return agent;
}
