import { createSocket } from 'node:dgram';
import { isIPv6 } from 'node:net';
import type { Logger } from '@msg/logger';
import sip, { type Connection, type ServerTransaction, type SipMessage } from 'sip';

export interface SipTransportOptions {
  host: string;
  port: number;
  logger: Logger;
  /** A new request outside any transaction (not ACK); answer through `transaction`. */
  onRequest(request: SipMessage, transaction: ServerTransaction): void;
  /** An ACK that matches no transaction: the ACK of a 2xx (RFC 3261 17.1.1.3). */
  onAck(ack: SipMessage): void;
}

export interface SipTransport {
  readonly host: string;
  readonly port: number;
  /** Sends a request through a client transaction (retransmitted over UDP, 408 on timeout). */
  request(
    request: SipMessage,
    target: { address: string; port: number },
    onResponse: (response: SipMessage) => void,
  ): void;
  close(): Promise<void>;
}

function isWellFormed(message: SipMessage): boolean {
  const { headers } = message;
  return (
    (message.method !== undefined || (message.status ?? 0) >= 100) &&
    Array.isArray(headers.via) &&
    headers.via.length > 0 &&
    typeof headers['call-id'] === 'string' &&
    headers.to !== undefined &&
    headers.from !== undefined &&
    headers.cseq !== undefined
  );
}

/**
 * SIP over UDP: our own socket (so port 0 works and errors are ours to handle) under sip.js's
 * parser, writer and RFC 3261 transaction layer, which absorbs request retransmissions, resends
 * non-2xx finals until their ACK and retransmits our own requests.
 */
export async function openSipTransport(options: SipTransportOptions): Promise<SipTransport> {
  const { host, logger } = options;
  const socket = createSocket(isIPv6(host) ? 'udp6' : 'udp4');
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(options.port, host, () => {
      socket.off('error', reject);
      resolve();
    });
  });
  socket.on('error', (error) => logger.warn('sip socket error', { error }));
  const port = socket.address().port;
  let closed = false;

  const write = (message: SipMessage, target: { address: string; port: number }) => {
    if (closed) return;
    const text = sip.stringify(message);
    socket.send(Buffer.from(text, 'binary'), target.port, target.address);
  };

  const connectionTo = (target: { address: string; port: number }): Connection => ({
    protocol: 'UDP',
    release() {},
    send(message) {
      const via = message.method ? message.headers.via[0] : undefined;
      if (via) {
        via.host = host;
        via.port = port;
        via.protocol = 'UDP';
        via.params.rport = null;
      }
      write(message, target);
    },
  });

  const layer = sip.makeTransactionLayer({}, connectionTo);

  // Responses go where the top Via says, corrected by received/rport (RFC 3261 18.2.2, RFC 3581).
  const responseTarget = (request: SipMessage) => {
    const via = request.headers.via[0];
    const rport = Number(via?.params.rport);
    return {
      address: String(via?.params.received ?? via?.host ?? ''),
      port: rport > 0 ? rport : (via?.port ?? 5060),
    };
  };

  socket.on('message', (datagram, remote) => {
    const message = sip.parse(datagram);
    if (!message || !isWellFormed(message)) {
      logger.debug('sip datagram ignored', { from: remote.address });
      return;
    }
    try {
      if (message.method === undefined) {
        layer.getClient(message)?.message(message);
        return;
      }
      const via = message.headers.via[0];
      if (via) {
        via.params.received = remote.address;
        if (Object.hasOwn(via.params, 'rport')) via.params.rport = remote.port;
      }
      const existing = layer.getServer(message);
      if (existing) {
        existing.message(message);
      } else if (message.method === 'ACK') {
        options.onAck(message);
      } else {
        const transaction = layer.createServerTransaction(
          message,
          connectionTo(responseTarget(message)),
        );
        options.onRequest(message, transaction);
      }
    } catch (error) {
      logger.error('sip message handling failed', { error });
    }
  });

  return {
    host,
    port,
    request(request, target, onResponse) {
      request.headers.via = [{ params: {} }];
      layer.createClientTransaction(connectionTo(target), request, onResponse);
    },
    close() {
      layer.destroy();
      closed = true;
      return new Promise<void>((resolve) => socket.close(() => resolve()));
    },
  };
}
