import { NotFoundError, UpstreamUnavailableError, ValidationError } from '@msg/http';
import { RbmError } from '@msg/rbm';
import type { Express, Request } from 'express';
import type { AgentStore } from '../agents/agent-store.js';
import { type AgentClients, AgentWithoutCredentialsError } from '../rbm/agent-clients.js';
import { testerAgent } from './tester-agent.js';
import type { Tester, TesterStore } from './tester-store.js';

export interface TesterRouteDeps {
  agents: AgentStore;
  testers: TesterStore;
  rbm: Pick<AgentClients, 'forAgent'>;
}

/** RBM's final answers to an invite; only PENDING is asked again. */
const SETTLED = new Set(['ACCEPTED', 'DECLINED']);

/** Spec 4.5: only the label is updatable; a PATCH naming these is refused, not silently ignored. */
const NOT_UPDATABLE = ['phone_number', 'agent_id', 'invite_status', 'name'] as const;

/**
 * Invites (again) through RBM, signed as the agent. RBM answers the current status of a number
 * already invited, which is how PENDING is synced. An agent without credentials, or RBM out of
 * reach, is a 503; RBM refusing the invite is a 400.
 */
async function invite(rbm: TesterRouteDeps['rbm'], agentId: string, phone: string) {
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

const queryAgent = (req: Request) => String(req.query.agent_id);
const pathPhone = (req: Request) => String(req.params.phone_number);

/**
 * Testers of an agent (spec 2.5, 4.5, 8.4): /rcs/v1/testers. invite_status is RBM's: PENDING
 * until the user answers the invite on the device, then ACCEPTED or DECLINED.
 */
export function testerRoutes(app: Express, { agents, testers, rbm }: TesterRouteDeps): void {
  async function found(req: Request): Promise<Tester> {
    const agent = await testerAgent(req, agents, queryAgent(req), 'query');
    const tester = await testers.get(agent.id, pathPhone(req));
    if (!tester) throw new NotFoundError('tester not found');
    return tester;
  }

  app.get('/rcs/v1/testers', async (req, res) => {
    const agent = await testerAgent(req, agents, queryAgent(req), 'query');
    const list = await testers.list(agent.id);
    res.json({ testers: list, total_count: list.length });
  });

  app.post('/rcs/v1/testers', async (req, res) => {
    const body = req.body as { phone_number: string; agent_id: string; label?: string | null };
    const agent = await testerAgent(req, agents, body.agent_id, 'body');
    const answer = await invite(rbm, agent.id, body.phone_number);
    const { tester, created } = await testers.saveInvite(
      agent.id,
      body.phone_number,
      answer,
      body.label,
    );
    res.status(created ? 201 : 200).json(tester);
  });

  app.get('/rcs/v1/testers/:phone_number', async (req, res) => {
    const tester = await found(req);
    if (SETTLED.has(tester.invite_status)) {
      res.json(tester);
      return;
    }
    const answer = await invite(rbm, tester.agent_id, tester.phone_number);
    res.json((await testers.saveInvite(tester.agent_id, tester.phone_number, answer)).tester);
  });

  app.patch('/rcs/v1/testers/:phone_number', async (req, res) => {
    const body = req.body as Record<string, unknown>;
    const named = NOT_UPDATABLE.filter((member) => member in body);
    if (named.length > 0) {
      throw new ValidationError(
        'Request validation failed',
        named.map((member) => ({
          loc: ['body', member],
          msg: 'only label can be updated',
          type: 'immutable',
        })),
      );
    }
    const tester = await found(req);
    const updated = await testers.setLabel(
      tester.agent_id,
      tester.phone_number,
      body.label as string | null,
    );
    if (!updated) throw new NotFoundError('tester not found');
    res.json(updated);
  });

  app.delete('/rcs/v1/testers/:phone_number', async (req, res) => {
    const tester = await found(req);
    await testers.remove(tester.agent_id, tester.phone_number);
    res.status(204).end();
  });
}
