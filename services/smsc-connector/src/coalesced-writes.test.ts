import { once } from 'node:events';
import net from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { coalesceWrites } from './coalesced-writes.js';

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

/** A connected loopback pair: the client socket and everything the server end has received. */
async function connectedPair() {
  const received: Buffer[] = [];
  const server = net.createServer((peer) => peer.on('data', (chunk) => received.push(chunk)));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  const client = net.connect(port, '127.0.0.1');
  await once(client, 'connect');
  closers.push(() => {
    client.destroy();
    server.close();
  });
  return { client, bytes: () => Buffer.concat(received) };
}

const pdu = (n: number) => Buffer.from([0, 0, 0, 5, n]);

describe('coalesceWrites', () => {
  it('when PDUs are written in one turn of the event loop, then they leave in one vectored write, in order', async () => {
    const { client, bytes } = await connectedPair();
    coalesceWrites(client);
    // Socket's own stream hooks: one call per system call it makes.
    const single = vi.spyOn(client as unknown as { _write: () => void }, '_write');
    const vectored = vi.spyOn(client as unknown as { _writev: () => void }, '_writev');

    for (let n = 0; n < 20; n++) client.write(pdu(n));

    await vi.waitFor(() => expect(bytes()).toHaveLength(100));
    expect(single).not.toHaveBeenCalled();
    expect(vectored).toHaveBeenCalledTimes(1);
    expect([...bytes()].filter((_, i) => i % 5 === 4)).toEqual(
      Array.from({ length: 20 }, (_, n) => n),
    );
  });

  it('when writes come in separate turns, then each turn goes out by itself and nothing waits for a later one', async () => {
    const { client, bytes } = await connectedPair();
    coalesceWrites(client);

    client.write(pdu(1));
    await vi.waitFor(() => expect(bytes()).toHaveLength(5));
    await new Promise((resolve) => setImmediate(resolve));
    client.write(pdu(2));
    client.write(pdu(3));
    await vi.waitFor(() => expect(bytes()).toHaveLength(15));
    expect([...bytes()].filter((_, i) => i % 5 === 4)).toEqual([1, 2, 3]);
  });
});
