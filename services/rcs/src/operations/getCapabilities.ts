import { UpstreamUnavailableError } from '@msg/http';
import { RbmError } from '@msg/rbm';
import type { RequestHandler } from 'express';
import type { AgentStore } from '../agents/agent-store.js';
import { agentForClient } from '../agents/client-agent.js';
import type { CapabilityChecker } from '../capability/capability-checker.js';
import { AgentWithoutCredentialsError } from '../rbm/agent-clients.js';

/** Seconds a client should wait before asking again when RBM could not be reached. */
const RETRY_AFTER_SECONDS = 5;

/**
 * A failed check as the client sees it (7.4): RBM unreachable or failing (5xx, 429, no answer)
 * is 503 with Retry-After; RBM refusing the agent's credentials or the request, and an agent
 * the operator gave no credentials, are 503 too — the service cannot answer, and the client
 * cannot fix it — but without Retry-After, the message naming what the operator must fix.
 */
export function capabilityFailure(error: unknown): unknown {
  if (error instanceof AgentWithoutCredentialsError) {
    return new UpstreamUnavailableError(
      `Agent ${error.agentId} has no RBM credentials configured: the operator must store them`,
    );
  }
  if (error instanceof RbmError) {
    return error.retryable
      ? new UpstreamUnavailableError('RBM platform unavailable', RETRY_AFTER_SECONDS)
      : new UpstreamUnavailableError(
          `RBM refused the capability check: ${error.httpStatus} ${error.status}`,
        );
  }
  return error;
}

type CapabilityQuery = { phone: string; agent_id: string; force_refresh?: boolean | string };

/**
 * GET /rcs/v1/capabilities (spec 2.5, 4.5 rule 2): the same access as sending (the account must
 * be allowed to use the agent), then the shared cache or RBM.
 */
export function getCapabilities(
  agents: AgentStore,
  checker: CapabilityChecker,
): RequestHandler<object, unknown, unknown, CapabilityQuery> {
  return async (req, res) => {
    const { phone, agent_id: agentId } = req.query;
    const forceRefresh = req.query.force_refresh === true || req.query.force_refresh === 'true';
    const account = req.account as NonNullable<typeof req.account>;
    const agent = await agentForClient(agents, agentId, account.id, ['query', 'agent_id']);
    let result: Awaited<ReturnType<CapabilityChecker['check']>>;
    try {
      result = await checker.check({ agentId: agent.id, phone, forceRefresh });
    } catch (error) {
      throw capabilityFailure(error);
    }
    res.json({
      rcs_supported: result.rcsSupported,
      phone_number: phone,
      features: result.features,
      cached: result.cached,
      checked_at: result.checkedAt.toISOString(),
    });
  };
}
