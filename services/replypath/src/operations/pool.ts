import type { RequestHandler } from 'express';
import { type PoolNumbersInput, parsePoolNumber, poolNumbersOf } from '../pool/pool-numbers.js';
import type { PoolStore } from '../pool/pool-store.js';

/** The path's number in any recipient form (`+46...`, `0046...`, `0...`), as E.164. */
const numberOf = (params: { number: string }) => parsePoolNumber(params.number, ['path', 'number']);

/** GET /internal/v1/pool/numbers */
export function listPoolNumbers(store: PoolStore): RequestHandler {
  return async (_req, res) => {
    res.json({ numbers: await store.list() });
  };
}

/** POST /internal/v1/pool/numbers — a range or a list; present numbers are left as they are. */
export function addPoolNumbers(
  store: PoolStore,
): RequestHandler<object, unknown, PoolNumbersInput> {
  return async (req, res) => {
    res.json(await store.add(poolNumbersOf(req.body)));
  };
}

/** PATCH /internal/v1/pool/numbers/{number} */
export function updatePoolNumber(
  store: PoolStore,
): RequestHandler<{ number: string }, unknown, { enabled: boolean }> {
  return async (req, res) => {
    res.json(await store.setEnabled(numberOf(req.params), req.body.enabled));
  };
}

/** DELETE /internal/v1/pool/numbers/{number} — refused (409) while a reservation holds it. */
export function removePoolNumber(store: PoolStore): RequestHandler<{ number: string }> {
  return async (req, res) => {
    await store.remove(numberOf(req.params));
    res.status(204).end();
  };
}
