import { backoffDelay } from '@msg/backoff';
import type { Logger } from '@msg/logger';
import smpp from 'smpp';
import { coalesceWrites } from './coalesced-writes.js';
import type { BindSettings } from './config.js';
import { recordPduOctets } from './raw-pdu-reader.js';
import { SmppStatus, statusLabel } from './smpp-status.js';
import { createWindow } from './window.js';

/** The session went away before the SMSC answered; whether it got the PDU is unknown. */
export class BindLostError extends Error {
  override name = 'BindLostError';
}

export interface DeliverSm {
  pdu: smpp.Pdu;
  /** The whole PDU as received, for our own decoding of short_message. */
  octets: Buffer;
}

export interface BindTimings {
  enquireLinkMs: number;
  reconnectMinMs: number;
  reconnectMaxMs: number;
  responseTimeoutMs: number;
}

export interface SmppBindOptions {
  settings: BindSettings;
  timings: BindTimings;
  logger: Logger;
  /** Stores a deliver_sm; resolving lets us answer it OK, throwing answers an error (SMSC resends). */
  onDeliverSm(bind: SmppBind, deliver: DeliverSm): Promise<void>;
  onStateChange(bind: SmppBind): void;
}

export interface SmppBind {
  readonly name: string;
  /** Scope of the SMSC's message ids: receipts may arrive on any session of this system id. */
  readonly scope: string;
  readonly isBound: boolean;
  readonly windowInUse: number;
  /** Sends one submit_sm within the window; resolves with the response, throws BindLostError. */
  submit(fields: smpp.PduFields): Promise<{ status: number; messageId: string | null }>;
  start(): void;
  /** Unbinds (politely, briefly) and stops reconnecting. */
  stop(): Promise<void>;
}

/**
 * One transceiver bind to one SMS centre, kept up for as long as the connector runs: connect,
 * bind_transceiver, enquire_link while idle, and on any loss reconnect after a delay doubling
 * from reconnectMinMs to reconnectMaxMs with full jitter (many replicas must not re-bind in step).
 */
export function createSmppBind(options: SmppBindOptions): SmppBind {
  const { settings, timings, logger: parentLogger } = options;
  const logger = parentLogger.child({ bind: settings.name });
  const window = createWindow(settings.window);
  let session: smpp.Session | null = null;
  let bound = false;
  let stopped = false;
  let failures = 0;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let enquireTimer: NodeJS.Timeout | undefined;
  /** Deadline of the enquire_link in flight; cleared with the session it belongs to. */
  let enquireDeadline: NodeJS.Timeout | undefined;
  let lastActivity = Date.now();
  /** Rejecters of submits awaiting their response on the current session. */
  const outstanding = new Set<(error: Error) => void>();

  const self: SmppBind = {
    name: settings.name,
    scope: `${settings.systemId}@${settings.host}:${settings.port}`,
    get isBound() {
      return bound;
    },
    get windowInUse() {
      return window.inUse;
    },
    submit,
    start: connect,
    stop,
  };

  function setBound(value: boolean) {
    if (bound === value) return;
    bound = value;
    options.onStateChange(self);
  }

  function connect() {
    if (stopped) return;
    const current = smpp.connect({ host: settings.host, port: settings.port });
    session = current;
    coalesceWrites(current.socket);
    const octets = recordPduOctets(current.socket);
    const bindTimer = setTimeout(() => {
      logger.warn('smpp bind timed out');
      current.destroy();
    }, timings.responseTimeoutMs);

    current.on('connect', () => {
      current.bind_transceiver(
        {
          system_id: settings.systemId,
          password: settings.password,
          system_type: settings.systemType,
          interface_version: 0x34,
        },
        (response) => {
          clearTimeout(bindTimer);
          if (response.command_status !== SmppStatus.ok) {
            logger.warn('smpp bind refused', { status: statusLabel(response.command_status) });
            current.destroy();
            return;
          }
          failures = 0;
          lastActivity = Date.now();
          setBound(true);
          logger.info('smpp bound');
          scheduleEnquireLink(current);
        },
      );
    });
    current.on('pdu', (pdu) => {
      const raw = octets.take();
      lastActivity = Date.now();
      if (pdu.command === 'deliver_sm') handleDeliverSm(current, pdu, raw);
      else if (pdu.command === 'enquire_link') current.send(pdu.response());
      else if (pdu.command === 'unbind') {
        current.send(pdu.response());
        current.destroy();
      }
    });
    current.on('error', (error) => {
      logger.warn('smpp session error', { error: error.message });
      current.destroy();
    });
    current.on('close', () => {
      clearTimeout(bindTimer);
      if (session !== current) return;
      session = null;
      clearTimeout(enquireTimer);
      // The enquire_link may be unanswered because the session closed: that is no news.
      clearTimeout(enquireDeadline);
      setBound(false);
      for (const reject of outstanding) reject(new BindLostError('smpp session closed'));
      outstanding.clear();
      scheduleReconnect();
    });
  }

  function scheduleReconnect() {
    if (stopped) return;
    failures++;
    const ceiling = backoffDelay(failures, {
      baseMs: timings.reconnectMinMs,
      maxMs: timings.reconnectMaxMs,
      jitter: 'none',
    });
    // Its own jitter: never sooner than half the minimum, so a flapping centre is not hammered.
    const delay = Math.max(timings.reconnectMinMs / 2, Math.random() * ceiling);
    reconnectTimer = setTimeout(connect, delay);
  }

  function scheduleEnquireLink(current: smpp.Session) {
    enquireTimer = setTimeout(() => {
      if (session !== current || !bound) return;
      if (Date.now() - lastActivity < timings.enquireLinkMs) {
        scheduleEnquireLink(current);
        return;
      }
      // A peer that does not answer enquire_link is gone even if TCP has not noticed yet.
      enquireDeadline = setTimeout(() => {
        if (session !== current) return;
        logger.warn('smpp enquire_link unanswered');
        current.destroy();
      }, timings.responseTimeoutMs);
      current.enquire_link({}, () => {
        clearTimeout(enquireDeadline);
        scheduleEnquireLink(current);
      });
    }, timings.enquireLinkMs);
  }

  function handleDeliverSm(current: smpp.Session, pdu: smpp.Pdu, raw: Buffer) {
    options.onDeliverSm(self, { pdu, octets: raw }).then(
      () => current.send(pdu.response()),
      (error: unknown) => {
        logger.error('deliver_sm not stored', { error: String(error) });
        current.send(pdu.response({ command_status: SmppStatus.systemError }));
      },
    );
  }

  async function submit(fields: smpp.PduFields) {
    await window.acquire();
    try {
      return await new Promise<{ status: number; messageId: string | null }>((resolve, reject) => {
        const current = session;
        if (!current || !bound) {
          reject(new BindLostError('not bound'));
          return;
        }
        const fail = (error: Error) => {
          clearTimeout(timer);
          outstanding.delete(fail);
          reject(error);
        };
        const timer = setTimeout(() => {
          // An unanswered submit leaves the session's state unknown: drop it and resubmit elsewhere.
          logger.warn('submit_sm unanswered');
          fail(new BindLostError('submit_sm response timed out'));
          current.destroy();
        }, timings.responseTimeoutMs);
        outstanding.add(fail);
        const sent = current.submit_sm(fields, (response) => {
          clearTimeout(timer);
          outstanding.delete(fail);
          const id = response.message_id;
          resolve({
            status: response.command_status,
            messageId: typeof id === 'string' && id.length > 0 ? id : null,
          });
        });
        if (!sent) fail(new BindLostError('smpp socket not writable'));
      });
    } finally {
      window.release();
    }
  }

  async function stop() {
    stopped = true;
    clearTimeout(reconnectTimer);
    clearTimeout(enquireTimer);
    clearTimeout(enquireDeadline);
    const current = session;
    if (!current) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, Math.min(timings.responseTimeoutMs, 2_000));
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      if (!bound || !current.unbind({}, done)) done();
    });
    current.destroy();
  }

  return self;
}
