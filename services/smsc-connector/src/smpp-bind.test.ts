import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import { createLogger } from '@msg/logger';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSmppBind, type SmppBind } from './smpp-bind.js';

const BIND_TRANSCEIVER = 0x09;
const ENQUIRE_LINK = 0x15;

/**
 * An SMSC that accepts bind_transceiver and drops the session on the first enquire_link, never
 * answering it: the drop the connector must not mistake for an unanswered enquire_link later.
 */
async function startDroppingSmsc() {
  const seen = { binds: 0, enquireLinks: 0 };
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 16 && pending.length >= pending.readUInt32BE(0)) {
        const command = pending.readUInt32BE(4);
        const sequence = pending.readUInt32BE(12);
        pending = pending.subarray(pending.readUInt32BE(0));
        if (command === BIND_TRANSCEIVER) {
          seen.binds++;
          const body = Buffer.from('smsc\0');
          const header = Buffer.alloc(16);
          header.writeUInt32BE(16 + body.length, 0);
          header.writeUInt32BE((0x80000000 | BIND_TRANSCEIVER) >>> 0, 4);
          header.writeUInt32BE(sequence, 12);
          socket.write(Buffer.concat([header, body]));
        } else if (command === ENQUIRE_LINK) {
          seen.enquireLinks++;
          socket.destroy();
        }
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    port: address.port,
    seen,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

function capturingLogger() {
  const lines: { message: string; level: string }[] = [];
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
  });
  return { logger: createLogger({ service: 'smpp-bind-test', level: 'debug', stream }), lines };
}

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

describe('createSmppBind', () => {
  it('when the session drops while an enquire_link is unanswered, then its deadline neither logs nor fires later', async () => {
    const smsc = await startDroppingSmsc();
    cleanup.push(smsc.close);
    const { logger, lines } = capturingLogger();
    const states: boolean[] = [];
    const responseTimeoutMs = 150;
    const bind: SmppBind = createSmppBind({
      settings: {
        name: 'a',
        host: '127.0.0.1',
        port: smsc.port,
        systemId: 'smsc',
        password: 'smsc',
        systemType: '',
        window: 1,
        tps: 10,
      },
      // Re-bind only after the old deadline would have fired, so that nothing else happens then.
      timings: {
        enquireLinkMs: 30,
        reconnectMinMs: 2_000,
        reconnectMaxMs: 2_000,
        responseTimeoutMs,
      },
      logger,
      onDeliverSm: async () => {},
      onStateChange: (changed) => states.push(changed.isBound),
    });
    cleanup.push(() => bind.stop());

    bind.start();
    await vi.waitFor(() => expect(states).toEqual([true, false]), { timeout: 5_000 });
    expect(smsc.seen.enquireLinks).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, responseTimeoutMs * 3));

    expect(lines.map((line) => line.message)).not.toContain('smpp enquire_link unanswered');
    expect(smsc.seen.binds).toBe(1);
  });
});
