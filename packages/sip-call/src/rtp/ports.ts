// One UDP socket per call for RTP, bound to an even port of the configured range (RFC 3550 §11:
// RTP on even ports), or to a free port chosen by the system when the range is [0, 0].
import { createSocket, type Socket } from 'node:dgram';

function bind(address: string, port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = createSocket('udp4');
    socket.once('error', (error) => {
      socket.close();
      reject(error);
    });
    socket.bind(port, address, () => {
      socket.removeAllListeners('error');
      resolve(socket);
    });
  });
}

export async function bindRtpSocket(address: string, range: [number, number]): Promise<Socket> {
  const [low, high] = range;
  if (low === 0) return bind(address, 0);
  const first = low + (low % 2);
  const span = Math.floor((high - first) / 2) + 1;
  // Start at a random slot so concurrent calls rarely collide on the same port.
  const offset = Math.floor(Math.random() * span);
  for (let i = 0; i < span; i++) {
    const port = first + ((offset + i) % span) * 2;
    try {
      return await bind(address, port);
    } catch (error) {
      if (!(error instanceof Error && 'code' in error && error.code === 'EADDRINUSE')) throw error;
    }
  }
  throw new Error(`no free RTP port in ${low}-${high}`);
}

/** A free UDP port on address, for stacks (sip.js) that cannot bind port 0 themselves. */
export function freeUdpPort(address: string): Promise<number> {
  return checkedUdpPort(address, 0);
}

/** The port (or a free one for 0) after checking it can be bound on address; throws if not. */
export async function checkedUdpPort(address: string, wanted: number): Promise<number> {
  const socket = await bind(address, wanted);
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}
