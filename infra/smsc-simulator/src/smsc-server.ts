import { randomBytes } from 'node:crypto';
import type { Logger } from '@msg/logger';
import smpp from 'smpp';
import { CommandStatus } from './command-status.js';
import { encodeGsm7, encodeGsm7Lossy } from './gsm7.js';
import { captureRawPdus } from './raw-pdu-capture.js';
import { outcomeFor, type ReceiptOutcome, type ReceiptRule } from './receipt-rules.js';
import { type FinalOutcome, formatReceiptText, MESSAGE_STATE } from './receipt-text.js';
import type {
  BindMode,
  InboundMessage,
  RecordedSubmit,
  SmscControl,
  SmscCredential,
  SmscStats,
  ThrottleSettings,
} from './smsc-types.js';
import { createSubmitLog } from './submit-log.js';
import { MalformedPduError, readSubmitSm } from './submit-sm-wire.js';
import { createSubmitWindow, type SubmitWindow } from './throttle.js';

export interface SmscServerOptions {
  credentials: readonly SmscCredential[];
  receiptDelayMs: number;
  rules: readonly ReceiptRule[];
  throttle: ThrottleSettings;
  logger: Logger;
  /** How many recorded submits GET /submits keeps (the newest); default 100,000. */
  maxRecordedSubmits?: number;
  /** system_id the simulator gives in bind responses. */
  smscSystemId?: string;
}

const BIND_MODES: Readonly<Record<string, BindMode>> = {
  bind_transceiver: 'transceiver',
  bind_transmitter: 'transmitter',
  bind_receiver: 'receiver',
};
const RECEIPT_ESM_CLASS = 0x04;
const RETRY_AFTER_REFUSAL_MS = 1000;
const MAX_SHORT_MESSAGE_OCTETS = 254;

/** A deliver_sm the simulator owes a client: kept until a deliver_sm_resp OK says it arrived. */
interface Delivery {
  systemId: string;
  fields: smpp.PduFields;
}

interface Connection {
  session: smpp.Session;
  systemId: string | null;
  mode: BindMode | null;
  closing: boolean;
  window: SubmitWindow;
  inflight: Set<Delivery>;
}

function canReceive(connection: Connection): boolean {
  return connection.mode === 'transceiver' || connection.mode === 'receiver';
}

/** Whether registered_delivery asks for a receipt of this outcome (NORECEIPT then suppresses it). */
function wantsReceipt(registeredDelivery: number, outcome: ReceiptOutcome): boolean {
  switch (registeredDelivery & 0x03) {
    case 1:
      return true;
    case 2:
      return outcome !== 'DELIVRD';
    case 3: // SMPP 5.0 "success only"; harmless to honour in 3.4
      return outcome === 'DELIVRD';
    default:
      return false;
  }
}

function emptyStats(): SmscStats {
  return {
    binds: 0,
    bindsRefused: 0,
    boundSessions: 0,
    submits: 0,
    firstSubmitAt: null,
    lastSubmitAt: null,
    throttled: 0,
    queueFull: 0,
    receiptsSent: 0,
    receiptsAcknowledged: 0,
    receiptsPending: 0,
    inboundSent: 0,
    inboundAcknowledged: 0,
    inboundRefused: 0,
  };
}

/** An address as SMPP carries it: '+' dropped and TON international, else TON unknown. */
function smppAddress(number: string): { addr: string; ton: number; npi: number } {
  if (number.startsWith('+')) return { addr: number.slice(1), ton: 1, npi: 1 };
  if (/^\d+$/.test(number)) return { addr: number, ton: 0, npi: 1 };
  return { addr: number, ton: 5, npi: 0 }; // alphanumeric sender
}

export class InboundTooLongError extends Error {
  override name = 'InboundTooLongError';
}

export interface SmscServer extends SmscControl {
  server: smpp.Server;
  /** Stops timers and drops every session; the caller closes the listening socket. */
  shutdown(): void;
}

/** The SMPP side of the simulator: binds, submits, receipts, mobile-originated messages. */
export function createSmscServer(options: SmscServerOptions): SmscServer {
  const { logger } = options;
  const smscSystemId = options.smscSystemId ?? 'SMSC';
  const connections = new Set<Connection>();
  const pending = new Map<string, Delivery[]>();
  const timers = new Set<NodeJS.Timeout>();
  // A random prefix keeps ids unique across restarts, which clients store and match on.
  const idPrefix = randomBytes(3).toString('hex');
  let idCounter = 0;
  let roundRobin = 0;
  const recorded = createSubmitLog(options.maxRecordedSubmits);
  let stats = emptyStats();
  let rules: readonly ReceiptRule[] = options.rules;
  let throttle: ThrottleSettings = { ...options.throttle };
  let refusing = false;

  const nextMessageId = () => `${idPrefix}${(idCounter++).toString(16).padStart(10, '0')}`;

  function later(delayMs: number, run: () => void): void {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, delayMs);
    timers.add(timer);
  }

  function pickReceiver(systemId: string | undefined): Connection | undefined {
    const eligible = [...connections].filter(
      (c) => !c.closing && canReceive(c) && (systemId === undefined || c.systemId === systemId),
    );
    if (eligible.length === 0) return undefined;
    roundRobin = (roundRobin + 1) % eligible.length;
    return eligible[roundRobin];
  }

  function countPending(): number {
    let count = 0;
    for (const queue of pending.values()) count += queue.length;
    return count;
  }

  function enqueue(delivery: Delivery, front = false): void {
    const queue = pending.get(delivery.systemId) ?? [];
    if (front) queue.unshift(delivery);
    else queue.push(delivery);
    pending.set(delivery.systemId, queue);
  }

  function flush(systemId: string): void {
    const queue = pending.get(systemId);
    while (queue && queue.length > 0) {
      const target = pickReceiver(systemId);
      const delivery = queue.shift();
      if (!target || !delivery) {
        if (delivery) queue.unshift(delivery);
        return;
      }
      sendReceipt(target, delivery);
    }
  }

  function sendReceipt(target: Connection, delivery: Delivery): void {
    target.inflight.add(delivery);
    const sent = target.session.send(new smpp.PDU('deliver_sm', delivery.fields), (response) => {
      if (!target.inflight.delete(delivery)) return; // already handed back when the session closed
      if (response.command_status === CommandStatus.ESME_ROK) {
        stats.receiptsAcknowledged++;
        return;
      }
      // The client refused it (e.g. ESME_RX_T_APPN): like a real SMSC, try again later.
      logger.warn('receipt refused by client', { status: response.command_status });
      later(RETRY_AFTER_REFUSAL_MS, () => {
        enqueue(delivery);
        flush(delivery.systemId);
      });
    });
    if (sent) {
      stats.receiptsSent++;
    } else {
      target.inflight.delete(delivery);
      target.closing = true;
      enqueue(delivery, true);
    }
  }

  /**
   * Sends a mobile-originated SMS; one the client refuses (it could not store it) is sent again
   * after a pause, like a real SMSC does — as long as a receiver is bound.
   */
  function sendInbound(target: Connection, systemId: string | undefined, fields: smpp.PduFields) {
    target.session.deliver_sm(fields, (response: smpp.Pdu) => {
      if (response.command_status === CommandStatus.ESME_ROK) {
        stats.inboundAcknowledged++;
        return;
      }
      stats.inboundRefused++;
      logger.warn('inbound sms refused by client', { status: response.command_status });
      later(RETRY_AFTER_REFUSAL_MS, () => {
        const again = pickReceiver(systemId);
        if (again) sendInbound(again, systemId, fields);
      });
    });
    stats.inboundSent++;
  }

  function receiptFor(record: RecordedSubmit, outcome: FinalOutcome, submittedAt: Date): Delivery {
    const text = formatReceiptText({
      messageId: record.messageId,
      outcome,
      submittedAt,
      doneAt: new Date(),
      text: record.text ?? '',
    });
    return {
      systemId: record.systemId,
      fields: {
        source_addr_ton: record.destAddrTon,
        source_addr_npi: record.destAddrNpi,
        source_addr: record.destinationAddr,
        dest_addr_ton: record.sourceAddrTon,
        dest_addr_npi: record.sourceAddrNpi,
        destination_addr: record.sourceAddr,
        esm_class: RECEIPT_ESM_CLASS,
        data_coding: 0,
        short_message: encodeGsm7Lossy(text),
        receipted_message_id: record.messageId,
        message_state: MESSAGE_STATE[outcome],
      },
    };
  }

  function reply(connection: Connection, pdu: smpp.Pdu, status: number, fields = {}): void {
    connection.session.send(pdu.response({ ...fields, command_status: status }));
  }

  function onBind(connection: Connection, pdu: smpp.Pdu, mode: BindMode): void {
    const systemId = String(pdu.system_id ?? '');
    if (connection.mode !== null) {
      reply(connection, pdu, CommandStatus.ESME_RALYBND);
      return;
    }
    const known = options.credentials.some(
      (c) => c.systemId === systemId && c.password === String(pdu.password ?? ''),
    );
    if (refusing || !known) {
      stats.bindsRefused++;
      logger.info('bind refused', { systemId, mode, refusing });
      reply(connection, pdu, CommandStatus.ESME_RBINDFAIL);
      return;
    }
    connection.systemId = systemId;
    connection.mode = mode;
    stats.binds++;
    logger.info('bound', { systemId, mode });
    reply(connection, pdu, CommandStatus.ESME_ROK, { system_id: smscSystemId });
    if (canReceive(connection)) flush(systemId);
  }

  function onSubmit(connection: Connection, pdu: smpp.Pdu, raw: Buffer): void {
    const systemId = connection.systemId;
    if (systemId === null || connection.mode === 'receiver') {
      reply(connection, pdu, CommandStatus.ESME_RINVBNDSTS);
      return;
    }
    if (throttle.queueFull) {
      stats.queueFull++;
      reply(connection, pdu, CommandStatus.ESME_RMSGQFUL);
      return;
    }
    if (!connection.window.tryAccept(throttle.perSecond, Date.now())) {
      stats.throttled++;
      reply(connection, pdu, CommandStatus.ESME_RTHROTTLED);
      return;
    }
    let fields: ReturnType<typeof readSubmitSm>;
    try {
      fields = readSubmitSm(raw);
    } catch (error) {
      if (!(error instanceof MalformedPduError)) throw error;
      logger.warn('malformed submit_sm', { reason: error.message });
      reply(connection, pdu, CommandStatus.ESME_RINVMSGLEN);
      return;
    }
    const outcome = outcomeFor(rules, fields.destinationAddr);
    const receivedAt = new Date();
    const record: RecordedSubmit = {
      ...fields,
      messageId: nextMessageId(),
      systemId,
      receivedAt: receivedAt.toISOString(),
      receiptOutcome: wantsReceipt(fields.registeredDelivery, outcome) ? outcome : null,
    };
    recorded.add(record);
    stats.submits++;
    stats.firstSubmitAt ??= record.receivedAt;
    stats.lastSubmitAt = record.receivedAt;
    reply(connection, pdu, CommandStatus.ESME_ROK, { message_id: record.messageId });
    const receiptOutcome = record.receiptOutcome;
    if (receiptOutcome === null || receiptOutcome === 'NORECEIPT') return;
    later(options.receiptDelayMs, () => {
      enqueue(receiptFor(record, receiptOutcome, receivedAt));
      flush(systemId);
    });
  }

  function onUnbind(connection: Connection, pdu: smpp.Pdu): void {
    connection.closing = true;
    connection.session.send(pdu.response(), () => connection.session.close());
  }

  function onPdu(connection: Connection, pdu: smpp.Pdu, raw: Buffer): void {
    if (pdu.isResponse()) return; // deliver_sm_resp: handled by the send callback
    const bindMode = BIND_MODES[pdu.command];
    if (bindMode) {
      onBind(connection, pdu, bindMode);
    } else if (pdu.command === 'enquire_link') {
      reply(connection, pdu, CommandStatus.ESME_ROK);
    } else if (pdu.command === 'unbind') {
      onUnbind(connection, pdu);
    } else if (pdu.command === 'submit_sm') {
      onSubmit(connection, pdu, raw);
    } else {
      // An unknown command id becomes generic_nack in pdu.response().
      reply(connection, pdu, CommandStatus.ESME_RINVCMDID);
    }
  }

  function onClose(connection: Connection): void {
    connections.delete(connection);
    if (connection.mode !== null) logger.info('session closed', { systemId: connection.systemId });
    // Receipts written but never acknowledged go back to the queue: they are never lost.
    const unacknowledged = [...connection.inflight].reverse();
    connection.inflight.clear();
    for (const delivery of unacknowledged) enqueue(delivery, true);
    for (const systemId of new Set(unacknowledged.map((d) => d.systemId))) flush(systemId);
  }

  const server = smpp.createServer({}, (session) => {
    const raw = captureRawPdus(session.socket);
    const connection: Connection = {
      session,
      systemId: null,
      mode: null,
      closing: false,
      window: createSubmitWindow(),
      inflight: new Set(),
    };
    connections.add(connection);
    session.on('pdu', (pdu) => onPdu(connection, pdu, raw.take()));
    session.on('error', (error) => logger.debug('session error', { error: error.message }));
    session.on('close', () => onClose(connection));
  });

  return {
    server,
    submits: (from?: number) => recorded.list(from),
    submitsRecorded: () => recorded.total(),
    stats: () => ({
      ...stats,
      boundSessions: [...connections].filter((c) => c.mode !== null && !c.closing).length,
      receiptsPending: countPending(),
    }),
    rules: () => rules,
    setRules(next) {
      rules = [...next];
    },
    throttle: () => ({ ...throttle }),
    setThrottle(settings) {
      throttle = { ...settings };
    },
    sendInbound(message: InboundMessage) {
      const gsm = encodeGsm7(message.text);
      const shortMessage = gsm ?? Buffer.from(message.text, 'utf16le').swap16();
      if (shortMessage.length > MAX_SHORT_MESSAGE_OCTETS) {
        throw new InboundTooLongError(
          `text takes ${shortMessage.length} octets; one deliver_sm carries at most ${MAX_SHORT_MESSAGE_OCTETS}`,
        );
      }
      const target = pickReceiver(message.systemId);
      if (!target) return null;
      const from = smppAddress(message.from);
      const to = smppAddress(message.to);
      const messageId = nextMessageId();
      sendInbound(target, message.systemId, {
        source_addr_ton: from.ton,
        source_addr_npi: from.npi,
        source_addr: from.addr,
        dest_addr_ton: to.ton,
        dest_addr_npi: to.npi,
        destination_addr: to.addr,
        esm_class: 0,
        data_coding: gsm ? 0 : 8,
        short_message: shortMessage,
      });
      return messageId;
    },
    dropSessions() {
      const count = connections.size;
      for (const connection of connections) {
        connection.closing = true;
        connection.session.destroy();
      }
      return count;
    },
    refuseBinds(refuse) {
      refusing = refuse;
    },
    reset() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      pending.clear();
      recorded.clear();
      stats = emptyStats();
      rules = options.rules;
      throttle = { ...options.throttle };
      refusing = false;
    },
    shutdown() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const connection of connections) connection.session.destroy();
    },
  };
}
