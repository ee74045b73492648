import type { Socket } from 'node:net';

/**
 * Keeps the octets of the PDU the `smpp` session is parsing. The session reads each PDU from the
 * socket with two synchronous read() calls (command_length, then the rest) and emits 'pdu' before
 * reading the next one, so in a 'pdu' listener the octets read since the last PDU are exactly
 * that PDU. Wrapping read() on this one socket leaves the package's shared code untouched.
 */
export function captureRawPdus(socket: Socket): { take(): Buffer } {
  const read = socket.read.bind(socket);
  let chunks: Buffer[] = [];
  socket.read = (size?: number) => {
    const chunk: unknown = read(size);
    if (Buffer.isBuffer(chunk)) chunks.push(chunk);
    return chunk;
  };
  return {
    take() {
      const octets = Buffer.concat(chunks);
      chunks = [];
      return octets;
    },
  };
}
