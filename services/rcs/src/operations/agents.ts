import type { RequestHandler } from 'express';
import type { AgentInput, AgentStore } from '../agents/agent-store.js';

type AgentParams = { agent_id: string };

/** GET /internal/v1/agents */
export function listAgents(store: AgentStore): RequestHandler {
  return async (_req, res) => {
    res.json({ agents: await store.list() });
  };
}

/** POST /internal/v1/agents — 409 when the id is taken. */
export function createAgent(
  store: AgentStore,
): RequestHandler<object, unknown, AgentInput & { agent_id: string; display_name: string }> {
  return async (req, res) => {
    const { agent_id, ...input } = req.body;
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
export function updateAgent(store: AgentStore): RequestHandler<AgentParams, unknown, AgentInput> {
  return async (req, res) => {
    res.json(await store.update(req.params.agent_id, req.body));
  };
}

/** DELETE /internal/v1/agents/{agent_id} */
export function deleteAgent(store: AgentStore): RequestHandler<AgentParams> {
  return async (req, res) => {
    await store.remove(req.params.agent_id);
    res.status(204).end();
  };
}
