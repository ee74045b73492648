import { createSocket, type Socket } from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { bindRtpSocket } from './ports.js';
import { RtpStream, toFrames } from './stream.js';

const sockets: Socket[] = [];
afterEach(() => {
  for (const s of sockets.splice(0)) s.close();
});

/** A bare UDP socket standing in for the callee's RTP port; collects raw datagrams. */
async function listener(): Promise<{ port: number; packets: Buffer[] }> {
  const socket = createSocket('udp4');
  sockets.push(socket);
  const packets: Buffer[] = [];
  socket.on('message', (m) => packets.push(m));
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', () => r()));
  return { port: socket.address().port, packets };
}

describe('RTP stream', () => {
  it('when audio is not a whole number of frames, then the last frame is padded with mu-law silence', () => {
    const frames = toFrames(Buffer.alloc(400, 0x11));
    expect(frames.map((f) => f.length)).toEqual([160, 160, 160]);
    expect(frames[2]?.subarray(0, 80).every((b) => b === 0x11)).toBe(true);
    expect(frames[2]?.subarray(80).every((b) => b === 0xff)).toBe(true);
  });

  it('when audio is played twice, then RTP v2 PCMU packets carry consecutive sequence numbers and timestamps', async () => {
    const far = await listener();
    const stream = new RtpStream(await bindRtpSocket('127.0.0.1', [0, 0]));
    stream.connect('127.0.0.1', far.port);
    const audio = Buffer.from(Array.from({ length: 480 }, (_, i) => i % 256));
    const sent = await stream.play(toFrames(audio), 2);
    await new Promise((r) => setTimeout(r, 50));
    await stream.close();

    expect(sent).toBe(6);
    expect(far.packets).toHaveLength(6);
    const headers = far.packets.map((p) => ({
      version: (p[0] ?? 0) >> 6,
      marker: ((p[1] ?? 0) & 0x80) !== 0,
      payloadType: (p[1] ?? 0) & 0x7f,
      sequence: p.readUInt16BE(2),
      timestamp: p.readUInt32BE(4),
      ssrc: p.readUInt32BE(8),
      length: p.length,
    }));
    const first = headers[0];
    if (!first) throw new Error('no packet');
    headers.forEach((h, i) => {
      expect(h).toMatchObject({ version: 2, payloadType: 0, length: 12 + 160, ssrc: first.ssrc });
      expect(h.marker).toBe(i === 0);
      expect(h.sequence).toBe((first.sequence + i) & 0xffff);
      expect(h.timestamp).toBe((first.timestamp + 160 * i) >>> 0);
    });
    // The payload is the audio, repeated.
    expect(far.packets[3]?.subarray(12)).toEqual(audio.subarray(0, 160));
  });

  it('when frames are paced, then frame n leaves near start + n × 20 ms and the play lasts the audio length', async () => {
    const far = await listener();
    const stream = new RtpStream(await bindRtpSocket('127.0.0.1', [0, 0]));
    stream.connect('127.0.0.1', far.port);
    const started = performance.now();
    await stream.play(toFrames(Buffer.alloc(160 * 25)), 1);
    const took = performance.now() - started;
    await stream.close();
    expect(took).toBeGreaterThanOrEqual(25 * 20 - 1);
    expect(took).toBeLessThan(25 * 20 + 1000); // sanity bound only
    expect(stream.stats.latenessMs).toHaveLength(25);
  });

  it('when the range is given, then the socket is bound to an even port inside it', async () => {
    const socket = await bindRtpSocket('127.0.0.1', [41_001, 41_101]);
    sockets.push(socket);
    const { port } = socket.address();
    expect(port % 2).toBe(0);
    expect(port).toBeGreaterThanOrEqual(41_001);
    expect(port).toBeLessThanOrEqual(41_101);
  });

  it('when stopped mid-play, then no further frames are sent', async () => {
    const far = await listener();
    const stream = new RtpStream(await bindRtpSocket('127.0.0.1', [0, 0]));
    stream.connect('127.0.0.1', far.port);
    setTimeout(() => stream.stop(), 110);
    const sent = await stream.play(toFrames(Buffer.alloc(160 * 50)), 1);
    await stream.close();
    expect(sent).toBeGreaterThan(2);
    expect(sent).toBeLessThan(50);
    expect(stream.stats.packetsSent).toBe(sent);
  });
});
