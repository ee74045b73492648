import type { RequestHandler } from 'express';
import { foundTester, invite, type TesterDeps } from '../testers/tester-access.js';

/** RBM's final answers to an invite; only PENDING is asked again. */
const SETTLED = new Set(['ACCEPTED', 'DECLINED']);

/** GET /rcs/v1/testers/{phone_number} — a PENDING invite is synced with RBM first. */
export function getTester(deps: TesterDeps): RequestHandler {
  return async (req, res) => {
    const tester = await foundTester(req, deps);
    if (SETTLED.has(tester.invite_status)) {
      res.json(tester);
      return;
    }
    const answer = await invite(deps.rbm, tester.agent_id, tester.phone_number);
    res.json((await deps.testers.saveInvite(tester.agent_id, tester.phone_number, answer)).tester);
  };
}
