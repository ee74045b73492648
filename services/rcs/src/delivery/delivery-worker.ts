import { setTimeout as sleep } from 'node:timers/promises';
import { backoffDelay } from '@msg/backoff';
import { type Bus, subscribeToEvents } from '@msg/bus';
import { type RcsOutbound, Topics } from '@msg/contracts';
import type { Logger } from '@msg/logger';
import { RbmError } from '@msg/rbm';
import type { CapabilityChecker } from '../capability/capability-checker.js';
import { type AgentClients, AgentWithoutCredentialsError } from '../rbm/agent-clients.js';
import type { DeliveryMetrics } from './delivery-metrics.js';
import type { DeliveryFailureReason, OutcomeStore } from './outcome-store.js';
import { toAgentMessageRequest } from './rbm-request.js';

/** What the SMS fallback (src/fallback, rcs-fallback's `createSmsFallback`) is given. */
export interface SmsFallback {
  send(
    message: {
      id: string;
      accountId: string;
      agentId: string;
      recipient: string;
      clientMessageId: string | null;
      smsFallback: { sender: string; text: string };
    },
    cause: 'not_capable' | 'ttl_expired' | 'rbm_rejected',
  ): Promise<void>;
}

/** The outbound event with the members the fallback's intake adds (absent before it). */
type Outbound = RcsOutbound & {
  smsFallback?: { sender: string; text: string } | null;
  ttlSeconds?: number | null;
};

export interface DeliveryDeps {
  outcomes: OutcomeStore;
  capability: CapabilityChecker;
  rbm: Pick<AgentClients, 'forAgent' | 'forget'>;
  logger: Logger;
  /** Cut short a retry wait at shutdown: the message is left uncommitted and comes back. */
  signal: AbortSignal;
  retry: { initialMs: number; maxMs: number };
  /** rcs-inbound's subscription store: a user who unsubscribed after the send was accepted. */
  isUnsubscribed?: (agentId: string, phone: string) => Promise<boolean>;
  smsFallback?: SmsFallback;
  metrics?: DeliveryMetrics;
}

/** The message could not go over RCS and will not: the fallback or rcs.out.failed decides. */
class Undeliverable extends Error {
  constructor(
    readonly reason: 'RECIPIENT_NOT_RCS_CAPABLE' | 'RBM_REJECTED',
    detail: string,
  ) {
    super(detail);
  }
}

/**
 * Handles one rcs.outbound.v1 message, returning only once its outcome is durable (state and
 * event committed), so the consumer's offset never passes a message whose fate is unknown:
 * - already out of `queued` (a redelivered event): nothing;
 * - recipient unsubscribed since: rcs.out.failed RECIPIENT_UNSUBSCRIBED;
 * - not RCS-capable (the shared capability cache, or RBM's 404 on send): the SMS fallback when
 *   the message carries one, else rcs.out.failed RECIPIENT_NOT_RCS_CAPABLE;
 * - sent with our message id as RBM's messageId: 200, or 409 ALREADY_EXISTS (an earlier attempt
 *   got through) → `sent`; another 4xx → fallback or rcs.out.failed RBM_REJECTED;
 * - RBM unreachable, 5xx or 429: retried with doubling waits until it answers;
 * - RBM refuses the bearer token (401): once more with a new token, then RBM_REJECTED;
 * - the agent has no RBM credentials: rcs.out.failed AGENT_NOT_CONFIGURED.
 */
export function createDeliveryHandler(deps: DeliveryDeps) {
  const { outcomes, capability, rbm, logger, signal } = deps;
  const count = deps.metrics?.outcome ?? (() => {});

  async function fail(message: Outbound, reason: DeliveryFailureReason, traceId?: string) {
    await outcomes.markFailed(message, reason, traceId);
    count(reason);
  }

  async function attempt(message: Outbound): Promise<void> {
    const { agentId, recipient, messageId } = message;
    const answer = await capability.check({ agentId, phone: recipient });
    if (!answer.rcsSupported) {
      throw new Undeliverable('RECIPIENT_NOT_RCS_CAPABLE', 'not RCS-capable');
    }
    const client = await rbm.forAgent(agentId);
    try {
      await client.sendMessage(agentId, recipient, messageId, toAgentMessageRequest(message));
    } catch (error) {
      if (!(error instanceof RbmError)) throw error;
      if (error.httpStatus === 409) return; // ALREADY_EXISTS: RBM has it from an earlier attempt
      // RBM's 404 on send: the phone is not RCS-reachable (the cached answer was stale).
      if (error.httpStatus === 404) {
        throw new Undeliverable('RECIPIENT_NOT_RCS_CAPABLE', error.message);
      }
      throw error; // retried, renewed (401) or refused by the caller
    }
  }

  async function undeliverable(message: Outbound, failure: Undeliverable, traceId?: string) {
    if (message.smsFallback && deps.smsFallback) {
      await deps.smsFallback.send(
        {
          id: message.messageId,
          accountId: message.accountId,
          agentId: message.agentId,
          recipient: message.recipient,
          clientMessageId: message.clientMessageId,
          smsFallback: message.smsFallback,
        },
        failure.reason === 'RBM_REJECTED' ? 'rbm_rejected' : 'not_capable',
      );
      count('fallback');
      return;
    }
    await fail(message, failure.reason, traceId);
  }

  return async function deliver(message: Outbound, traceId?: string): Promise<void> {
    const log = logger.child({ messageId: message.messageId, agentId: message.agentId });
    if ((await outcomes.state(message.messageId)) !== 'queued') {
      log.info('outbound message no longer queued; not sending again');
      count('duplicate');
      return;
    }
    if (await deps.isUnsubscribed?.(message.agentId, message.recipient)) {
      await fail(message, 'RECIPIENT_UNSUBSCRIBED', traceId);
      return;
    }
    let renewedClient = false;
    for (let failures = 0; ; failures++) {
      try {
        await attempt(message);
        await outcomes.markSent(message.messageId);
        count('sent');
        return;
      } catch (error) {
        if (error instanceof Undeliverable) {
          log.info('message not deliverable over RCS', {
            reason: error.reason,
            detail: error.message,
          });
          await undeliverable(message, error, traceId);
          return;
        }
        if (error instanceof AgentWithoutCredentialsError) {
          log.warn('agent has no RBM credentials; message failed');
          await fail(message, 'AGENT_NOT_CONFIGURED', traceId);
          return;
        }
        if (!(error instanceof RbmError)) throw error;
        // A bearer token RBM no longer honours (revoked, the platform restarted): one new client
        // with a new token before calling it a rejection.
        if (error.httpStatus === 401 && !renewedClient) {
          renewedClient = true;
          rbm.forget(message.agentId);
          continue;
        }
        if (!error.retryable) {
          const rejected = new Undeliverable('RBM_REJECTED', `${error.status}: ${error.message}`);
          log.info('RBM refused the message', { detail: rejected.message });
          await undeliverable(message, rejected, traceId);
          return;
        }
        // No jitter: one worker retrying its own message; `failures` counts the tries before this.
        const waitMs = backoffDelay(failures + 1, {
          baseMs: deps.retry.initialMs,
          maxMs: deps.retry.maxMs,
          jitter: 'none',
        });
        log.warn('RBM could not take the message; retrying', {
          status: error.httpStatus,
          rbmStatus: error.status,
          waitMs,
        });
        count('retry');
        renewedClient = false; // the platform may come back restarted: its tokens are new
        // Aborted (shutdown): rejects, so the message stays uncommitted and is redelivered.
        await sleep(waitMs, undefined, { signal });
      }
    }
  };
}

export interface DeliveryWorkerOptions extends Omit<DeliveryDeps, 'signal'> {
  bus: Bus;
  groupId: string;
  /** Messages of one partition in flight at once. */
  concurrency: number;
}

/**
 * The delivery worker: reads rcs.outbound.v1 and delivers each message (createDeliveryHandler).
 * Key order is not kept (the key is the agent, whose messages are independent): a slow send does
 * not hold the agent's others back, and offsets still commit only past contiguously finished
 * messages. Answers the stop function.
 */
export async function startDeliveryWorker(options: DeliveryWorkerOptions) {
  const stopping = new AbortController();
  const deliver = createDeliveryHandler({ ...options, signal: stopping.signal });
  const subscription = await subscribeToEvents(options.bus, {
    topic: Topics.rcsOutbound,
    groupId: options.groupId,
    fromBeginning: true,
    concurrency: options.concurrency,
    keyOrdering: false,
    handler: (event) => deliver(event.payload as Outbound, event.traceId),
  });
  return async () => {
    stopping.abort();
    await subscription.stop();
  };
}
