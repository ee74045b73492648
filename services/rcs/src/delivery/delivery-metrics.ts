import { Counter, type Registry } from 'prom-client';

/** What became of one attempt to deliver an outbound message. */
export type DeliveryOutcome =
  | 'sent'
  /** The event came again after the outcome was stored: nothing done. */
  | 'duplicate'
  /** Handed to the SMS fallback. */
  | 'fallback'
  /** RBM unreachable, 5xx or 429: waiting to try again. */
  | 'retry'
  | 'RECIPIENT_NOT_RCS_CAPABLE'
  | 'RBM_REJECTED'
  | 'RECIPIENT_UNSUBSCRIBED'
  | 'AGENT_NOT_CONFIGURED';

export function createDeliveryMetrics(registry?: Registry) {
  const outcomes = new Counter({
    name: 'rcs_delivery_outcomes_total',
    help: 'Outbound RCS messages by what the delivery worker did (failure reasons by name; retry per wait).',
    labelNames: ['outcome'] as const,
    registers: registry ? [registry] : [],
  });
  return {
    outcome(outcome: DeliveryOutcome): void {
      outcomes.inc({ outcome });
    },
  };
}

export type DeliveryMetrics = ReturnType<typeof createDeliveryMetrics>;
