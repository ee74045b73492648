import { type AccountLookup, findAccount } from '@msg/auth';
import type { RequestHandler } from 'express';
import { accountIdOf, accountIdsOf, unknownAccount } from '../agents/account-refs.js';
import type { AgentInput, AgentStore } from '../agents/agent-store.js';

type AgentParams = { agent_id: string };
type AgentAccountParams = AgentParams & { account: string };

/** The input with its `accounts` (ids or names) made ids; a 400 names any that names none. */
function withAccountIds<T extends AgentInput>(accounts: AccountLookup, input: T): T {
  return input.accounts
    ? { ...input, accounts: accountIdsOf(accounts, input.accounts, ['body', 'accounts']) }
    : input;
}

/** GET /internal/v1/agents */
export function listAgents(store: AgentStore): RequestHandler {
  return async (_req, res) => {
    res.json({ agents: await store.list() });
  };
}

/** POST /internal/v1/agents — 409 when the id is taken. */
export function createAgent(
  store: AgentStore,
  accounts: AccountLookup,
): RequestHandler<object, unknown, AgentInput & { agent_id: string; display_name: string }> {
  return async (req, res) => {
    const { agent_id, ...input } = withAccountIds(accounts, req.body);
    res.status(201).json(await store.create(agent_id, input));
  };
}

/** GET /internal/v1/agents/{agent_id} */
export function getAgent(store: AgentStore): RequestHandler<AgentParams> {
  return async (req, res) => {
    res.json(await store.get(req.params.agent_id));
  };
}

/** PATCH /internal/v1/agents/{agent_id} */
export function updateAgent(
  store: AgentStore,
  accounts: AccountLookup,
): RequestHandler<AgentParams, unknown, AgentInput> {
  return async (req, res) => {
    res.json(await store.update(req.params.agent_id, withAccountIds(accounts, req.body)));
  };
}

/** PUT /internal/v1/agents/{agent_id}/accounts/{account} — the account may send as the agent. */
export function allowAgentAccount(
  store: AgentStore,
  accounts: AccountLookup,
): RequestHandler<AgentAccountParams> {
  return async (req, res) => {
    const accountId = accountIdOf(accounts, req.params.account);
    res.json(await store.allow(req.params.agent_id, accountId));
  };
}

/** DELETE /internal/v1/agents/{agent_id}/accounts/{account} — it may no longer. */
export function denyAgentAccount(
  store: AgentStore,
  accounts: AccountLookup,
): RequestHandler<AgentAccountParams> {
  return async (req, res) => {
    const { account } = req.params;
    const known = findAccount(accounts, account);
    const { agent, removed } = await store.deny(req.params.agent_id, known?.id ?? account);
    // An id no longer known here (a stale entry) is still removed; a name of nothing is a 404.
    if (!known && !removed) throw unknownAccount(account);
    res.json(agent);
  };
}

/** DELETE /internal/v1/agents/{agent_id} */
export function deleteAgent(store: AgentStore): RequestHandler<AgentParams> {
  return async (req, res) => {
    await store.remove(req.params.agent_id);
    res.status(204).end();
  };
}
