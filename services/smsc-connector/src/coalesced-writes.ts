import type { Socket } from 'node:net';

/**
 * Makes everything written to `socket` in one turn of the event loop leave in one system call.
 * The smpp package writes each PDU on its own; under load the answers to one read free a burst
 * of window slots (and a group commit releases a burst of deliver_sm_resp) whose PDUs would each
 * cost a write here and a wake-up of the SMSC. Corked, they go out together once the turn ends;
 * the order of PDUs on the wire is unchanged.
 */
export function coalesceWrites(socket: Socket): void {
  let corked = false;
  const uncork = () => {
    corked = false;
    socket.uncork();
  };
  const write: Socket['write'] = socket.write.bind(socket);
  socket.write = ((...args: Parameters<Socket['write']>) => {
    if (!corked) {
      corked = true;
      socket.cork();
      setImmediate(uncork);
    }
    return write(...(args as [Uint8Array | string]));
  }) as Socket['write'];
}
