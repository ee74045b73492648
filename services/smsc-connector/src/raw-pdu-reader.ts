import type { Socket } from 'node:net';

/**
 * The octets of each PDU the `smpp` session parses from `socket`. The package decodes
 * short_message with its own alphabet tables, losing the octets; we decode them ourselves
 * (@msg/sms-text) and so need them raw. The session takes one PDU with synchronous read() calls and
 * emits 'pdu' before reading the next, so whatever was read since the previous take() is the PDU
 * being emitted. Only this socket's read is wrapped; the package's shared code is untouched.
 */
export function recordPduOctets(socket: Socket): { take(): Buffer } {
  const originalRead = socket.read.bind(socket);
  let pending: Buffer[] = [];
  socket.read = (size?: number) => {
    const chunk: unknown = originalRead(size);
    if (Buffer.isBuffer(chunk)) pending.push(chunk);
    return chunk;
  };
  return {
    take() {
      const octets = Buffer.concat(pending);
      pending = [];
      return octets;
    },
  };
}
