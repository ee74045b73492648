/**
 * Kafka topic names. These are WIRE NAMES: once deployed they cannot change without a migration,
 * so the convention is fixed here — lower-case, dot-separated, ending in a version.
 */
export const Topics = {
  /** Compacted: the latest state of every account, keyed by account id. */
  accounts: 'accounts.v1',
  smsOutbound: 'sms.outbound.v1',
  smsStatus: 'sms.status.v1',
  smsInbound: 'sms.inbound.v1',
  batchEvents: 'batch.events.v1',
  /**
   * RCS domain events (2.5's event table), key = agent id; rcs's own webhook fan-out reads them
   * and asks the notifier for each delivery on callbacks.v1.
   */
  rcsEvents: 'rcs.events.v1',
  /** RCS messages accepted by the rcs service, for its delivery worker; key = agent id. */
  rcsOutbound: 'rcs.outbound.v1',
  callbacks: 'callbacks.v1',
  callbacksDlq: 'callbacks.dlq.v1',
  /** Compacted: whether a recipient opted out of an account's messages, keyed `<account>:<msisdn>`. */
  optOuts: 'optouts.v1',
  /**
   * Compacted, one key: the operator's protected sender names (banks, authorities), the whole
   * list in each event.
   */
  protectedSenders: 'senders.protected.v1',
  /** Poison messages that a consumer could not handle after its retries. */
  deadLetter: 'deadletter.v1',
} as const;

export type Topic = (typeof Topics)[keyof typeof Topics];
