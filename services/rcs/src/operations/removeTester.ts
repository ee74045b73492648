import type { RequestHandler } from 'express';
import { foundTester, type TesterDeps } from '../testers/tester-access.js';

/** DELETE /rcs/v1/testers/{phone_number} */
export function removeTester(deps: TesterDeps): RequestHandler {
  return async (req, res) => {
    const tester = await foundTester(req, deps);
    await deps.testers.remove(tester.agent_id, tester.phone_number);
    res.status(204).end();
  };
}
