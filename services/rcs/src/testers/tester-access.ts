import { NotFoundError, UpstreamUnavailableError, ValidationError } from '@msg/http';
import { RbmError } from '@msg/rbm';
import type { Request } from 'express';
import type { AgentStore } from '../agents/agent-store.js';
import { type AgentClients, AgentWithoutCredentialsError } from '../rbm/agent-clients.js';
import { testerAgent } from './tester-agent.js';
import type { Tester, TesterStore } from './tester-store.js';

/**
 * What the tester operations (/rcs/v1/testers, spec 2.5, 4.5, 8.4) share. invite_status is
 * RBM's: PENDING until the user answers the invite on the device, then ACCEPTED or DECLINED.
 */
export interface TesterDeps {
  agents: AgentStore;
  testers: TesterStore;
  rbm: Pick<AgentClients, 'forAgent'>;
}

/**
 * Invites (again) through RBM, signed as the agent. RBM answers the current status of a number
 * already invited, which is how PENDING is synced. An agent without credentials, or RBM out of
 * reach, is a 503; RBM refusing the invite is a 400.
 */
export async function invite(rbm: TesterDeps['rbm'], agentId: string, phone: string) {
  try {
    return await (await rbm.forAgent(agentId)).inviteTester(agentId, phone);
  } catch (err) {
    if (err instanceof AgentWithoutCredentialsError) {
      throw new UpstreamUnavailableError('the agent has no RBM credentials; ask the operator');
    }
    if (err instanceof RbmError && !err.retryable) {
      throw ValidationError.field(
        ['body'],
        'rbm_rejected',
        `RBM refused the invite (${err.status})`,
      );
    }
    if (err instanceof RbmError) throw new UpstreamUnavailableError('RBM is unavailable', 5);
    throw err;
  }
}

/** The agent named by `agent_id` in the query, with the access rules of sending (testerAgent). */
export const queryAgent = (req: Request, agents: AgentStore) =>
  testerAgent(req, agents, String(req.query.agent_id), 'query');

/** The tester `/rcs/v1/testers/{phone_number}?agent_id=` names; 404 when there is none. */
export async function foundTester(req: Request, deps: TesterDeps): Promise<Tester> {
  const agent = await queryAgent(req, deps.agents);
  const tester = await deps.testers.get(agent.id, String(req.params.phone_number));
  if (!tester) throw new NotFoundError('tester not found');
  return tester;
}
