import { NotFoundError, ValidationError } from '@msg/http';
import type { RequestHandler } from 'express';
import { foundTester, type TesterDeps } from '../testers/tester-access.js';

/** Spec 4.5: only the label is updatable; a PATCH naming these is refused, not silently ignored. */
const NOT_UPDATABLE = ['phone_number', 'agent_id', 'invite_status', 'name'] as const;

/** PATCH /rcs/v1/testers/{phone_number} — the label, nothing else. */
export function updateTester(deps: TesterDeps): RequestHandler {
  return async (req, res) => {
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
    const tester = await foundTester(req, deps);
    const updated = await deps.testers.setLabel(
      tester.agent_id,
      tester.phone_number,
      body.label as string | null,
    );
    if (!updated) throw new NotFoundError('tester not found');
    res.json(updated);
  };
}
