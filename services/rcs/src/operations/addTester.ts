import type { RequestHandler } from 'express';
import { invite, type TesterDeps } from '../testers/tester-access.js';
import { testerAgent } from '../testers/tester-agent.js';

type AddTesterBody = { phone_number: string; agent_id: string; label?: string | null };

/** POST /rcs/v1/testers — invited through RBM; 201 for a new tester, 200 for one invited again. */
export function addTester({ agents, testers, rbm }: TesterDeps): RequestHandler {
  return async (req, res) => {
    const body = req.body as AddTesterBody;
    const agent = await testerAgent(req, agents, body.agent_id, 'body');
    const answer = await invite(rbm, agent.id, body.phone_number);
    const { tester, created } = await testers.saveInvite(
      agent.id,
      body.phone_number,
      answer,
      body.label,
    );
    res.status(created ? 201 : 200).json(tester);
  };
}
