import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface SingleConnectionGate {
  port: number;
  close(): Promise<void>;
}

export interface SingleConnectionGateOptions {
  host: string;
  /** Where the single-connection server listens. */
  upstreamPort: number;
  /** Whether the upstream has forgotten the previous connection and would accept a new one. */
  upstreamIdle(): boolean;
  /** How long a connection may wait for the one before it; then it is refused. */
  waitTimeoutMs: number;
}

/**
 * A TCP relay that lets one client connection at a time through to a server that accepts only
 * one, and makes the next wait until the previous has closed on both sides.
 *
 * Why: pglite-socket refuses a connection while it still tracks the previous one, and it
 * notices a closed socket a few event-loop turns late. A pool that replaces a broken connection
 * reconnects at once and would be refused every time. A connection that waits longer than
 * `waitTimeoutMs` (someone opened a second pool) gets a proper Postgres error (53300) instead
 * of a dropped socket.
 */
export async function startSingleConnectionGate({
  host,
  upstreamPort,
  upstreamIdle,
  waitTimeoutMs,
}: SingleConnectionGateOptions): Promise<SingleConnectionGate> {
  const waiting: { socket: Socket; deadline: number }[] = [];
  const open = new Set<Socket>();
  let busy = false;
  let closed = false;

  const server: Server = createServer((socket) => {
    socket.pause();
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => socket.destroy());
    const entry = { socket, deadline: Date.now() + waitTimeoutMs };
    waiting.push(entry);
    // Refuse it if the connection ahead of it is still open by then.
    setTimeout(() => {
      const index = waiting.indexOf(entry);
      if (index === -1) return;
      waiting.splice(index, 1);
      refuse(socket);
    }, waitTimeoutMs).unref();
    void admitNext();
  });

  async function admitNext(): Promise<void> {
    if (busy || closed) return;
    const next = waiting.shift();
    if (!next) return;
    busy = true;
    while (!upstreamIdle() && Date.now() < next.deadline && !closed) await sleep(1);
    if (closed || next.socket.destroyed) {
      busy = false;
      return admitNext();
    }
    if (!upstreamIdle()) {
      refuse(next.socket);
      busy = false;
      return admitNext();
    }
    relay(next.socket);
  }

  function relay(client: Socket): void {
    const upstream = tcpConnect(upstreamPort, host);
    open.add(upstream);
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      client.destroy();
      upstream.destroy();
      open.delete(upstream);
      busy = false;
      void admitNext();
    };
    upstream.setNoDelay(true);
    client.setNoDelay(true);
    client.pipe(upstream);
    upstream.pipe(client);
    for (const socket of [client, upstream]) {
      socket.on('close', finish);
      socket.on('error', finish);
    }
    client.resume();
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('gate has no TCP port');

  return {
    port: address.port,
    async close() {
      closed = true;
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Postgres ErrorResponse "too many connections" (SQLSTATE 53300), then close. */
function refuse(socket: Socket): void {
  const fields = [
    ['S', 'FATAL'],
    ['V', 'FATAL'],
    ['C', '53300'],
    ['M', 'embedded Postgres accepts one connection at a time: share one pool of max 1'],
  ]
    .map(([code, value]) => `${code}${value}\0`)
    .join('');
  const body = Buffer.from(`${fields}\0`, 'utf8');
  const header = Buffer.alloc(5);
  header.write('E', 0, 'ascii');
  header.writeInt32BE(body.length + 4, 1);
  socket.end(Buffer.concat([header, body]));
}
