import { Counter, type Registry } from 'prom-client';

/** What became of an inbound SMS sent to a reply-path number. */
export type InboundOutcome =
  /** Matched an active reservation; stored and handed to the notifier. */
  | 'forwarded'
  /** Matched, stored, but the account has no usable reply-path URL: nothing to forward to. */
  | 'stored-without-callback'
  /** No active reservation of (sender, number): unknown, expired, released or quarantined. */
  | 'unmatched'
  /** The same inbound event (or SMSC message) again: already handled. */
  | 'duplicate';

export function createInboundMetrics(registry: Registry) {
  const inbound = new Counter({
    name: 'replypath_inbound_sms_total',
    help: 'Inbound SMS to reply-path numbers by outcome (unmatched ones are not forwarded).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  return {
    inbound(outcome: InboundOutcome): void {
      inbound.inc({ outcome });
    },
  };
}

export type InboundMetrics = ReturnType<typeof createInboundMetrics>;
