import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/**
 * The connector's metrics. `windows` is read at scrape time: the window changes on every submit,
 * and a scrape only needs the value at that moment.
 */
export function createConnectorMetrics(
  registry: Registry,
  windows: () => readonly { bind: string; inUse: number }[],
) {
  return {
    bindUp: new Gauge({
      name: 'smpp_bind_up',
      help: '1 while the bind is bound as transceiver, else 0.',
      labelNames: ['bind'],
      registers: [registry],
    }),
    submits: new Counter({
      name: 'smpp_submits_total',
      help: 'submit_sm answered, by result: ok, throttled, lost (no answer) or the SMPP error status.',
      labelNames: ['result'],
      registers: [registry],
    }),
    submitSeconds: new Histogram({
      name: 'smpp_submit_seconds',
      help: 'Time from sending a submit_sm to its submit_sm_resp.',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    receipts: new Counter({
      name: 'smpp_receipts_total',
      help: 'Delivery receipts received, by part state.',
      labelNames: ['state'],
      registers: [registry],
    }),
    inbound: new Counter({
      name: 'smpp_inbound_total',
      help: 'Mobile-originated deliver_sm received (parts).',
      registers: [registry],
    }),
    smscMessageIdReused: new Counter({
      name: 'smsc_message_id_reused_total',
      help: 'Submits answered with an SMSC message id still mapped to another message (the new one takes it over).',
      registers: [registry],
    }),
    expired: new Counter({
      name: 'smpp_expired_total',
      help: 'Messages published as expired because no receipt arrived by the end of their validity.',
      registers: [registry],
    }),
    windowInUse: new Gauge({
      name: 'smpp_window_in_use',
      help: 'submit_sm awaiting their response on the bind.',
      labelNames: ['bind'],
      registers: [registry],
      collect() {
        for (const { bind, inUse } of windows()) this.set({ bind }, inUse);
      },
    }),
  };
}

export type ConnectorMetrics = ReturnType<typeof createConnectorMetrics>;
