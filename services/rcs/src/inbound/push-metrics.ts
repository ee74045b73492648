import { Counter, type Registry } from 'prom-client';

/** Why a push was refused with 403. */
export type PushRefusal =
  /** RCS_RBM_CLIENT_TOKEN is not set: nothing can be verified. */
  | 'no_client_token'
  /** X-Goog-Signature missing or not the HMAC of the data with our client token. */
  | 'signature'
  /** A set-up handshake naming another client token. */
  | 'handshake';

/** What became of a verified push. */
export type PushOutcome =
  /** The event type published on rcs.events.v1 (rcs.in.text, rcs.out.delivered, ...). */
  | `rcs.${string}`
  /** IS_TYPING: no event in 6.3. */
  | 'typing'
  /** The same push again (RBM redelivers until it gets a 2xx): already handled. */
  | 'duplicate'
  /** The push names an agent this service does not know. */
  | 'unknown_agent'
  /** DELIVERED / READ for a message that is not one of the agent's. */
  | 'unknown_message'
  /** DELIVERED / READ already reported, or the message is failed, revoked or fell back to SMS. */
  | 'stale'
  /** A kind without an event (location, unknown suggestion type, new RBM kinds). */
  | 'unsupported'
  /** RBM's own event (TTL expiry): handed to the server-event hook when there is one. */
  | 'server';

export function createPushMetrics(registry: Registry) {
  const refused = new Counter({
    name: 'rcs_inbound_push_refused_total',
    help: 'RBM pushes refused with 403 (bad or missing X-Goog-Signature, no client token, foreign handshake).',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const handled = new Counter({
    name: 'rcs_inbound_pushes_total',
    help: 'Verified RBM pushes by outcome (the event published, or why none was).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  return {
    refused(reason: PushRefusal): void {
      refused.inc({ reason });
    },
    handled(outcome: PushOutcome): void {
      handled.inc({ outcome });
    },
  };
}

export type PushMetrics = ReturnType<typeof createPushMetrics>;
