import { randomInt } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { isIPv6 } from 'node:net';
import { performance } from 'node:perf_hooks';
import alawmulaw from 'alawmulaw';
import { FRAME_MS, FRAME_SAMPLES, MULAW_SILENCE_FRAME } from './prompts.js';
import { buildRtp, PCMU_PAYLOAD_TYPE, parseRtp } from './rtp-packet.js';

/** One call's media: a UDP port that records the PCMU it receives and plays a prompt back. */
export interface RtpSession {
  readonly port: number;
  /** Starts sending `prompt` (mu-law) in 20 ms frames to `remote`, then silence until closed. */
  play(prompt: Buffer, remote: { address: string; port: number }): void;
  /** PCMU packets received. */
  readonly packets: number;
  /** Packets sent. */
  readonly sent: number;
  /** Everything received, decoded to 16-bit PCM in arrival order. */
  samples(): Int16Array;
  /** Called with each received frame, decoded. */
  onFrame(listener: (frame: Int16Array) => void): void;
  close(): Promise<void>;
}

/** Frame n of a mu-law prompt, padded with silence (0xFF) past its end. */
function frameOf(prompt: Buffer, frame: number): Buffer {
  const out = Buffer.alloc(FRAME_SAMPLES, 0xff);
  prompt.copy(out, 0, frame * FRAME_SAMPLES, (frame + 1) * FRAME_SAMPLES);
  return out;
}

export async function openRtpSession(host: string): Promise<RtpSession> {
  const socket: Socket = createSocket(isIPv6(host) ? 'udp6' : 'udp4');
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, host, () => {
      socket.off('error', reject);
      resolve();
    });
  });
  // A send to a closed port comes back as an ICMP error on some systems; media just goes on.
  socket.on('error', () => {});

  const chunks: Int16Array[] = [];
  const listeners: ((frame: Int16Array) => void)[] = [];
  let packets = 0;
  let sent = 0;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  socket.on('message', (datagram) => {
    const packet = parseRtp(datagram);
    // Only PCMU is audio here; telephone-event (RFC 4733) and comfort noise are not recorded.
    if (!packet || packet.payloadType !== PCMU_PAYLOAD_TYPE || packet.payload.length === 0) return;
    packets += 1;
    const frame = alawmulaw.mulaw.decode(packet.payload);
    chunks.push(frame);
    for (const listener of listeners) listener(frame);
  });

  return {
    port: socket.address().port,
    get packets() {
      return packets;
    },
    get sent() {
      return sent;
    },
    play(prompt, remote) {
      if (timer || closed) return;
      const ssrc = randomInt(0, 2 ** 32 - 1);
      const firstSequence = randomInt(0, 2 ** 16);
      const firstTimestamp = randomInt(0, 2 ** 32 - 1);
      const promptFrames = Math.ceil(prompt.length / FRAME_SAMPLES);
      const start = performance.now();
      let frame = 0;
      // Paced on an absolute clock: frame n leaves at start + 20n ms, so timer lateness never
      // accumulates into drift (a late tick sends the frames that are due).
      const tick = () => {
        if (closed) return;
        while (start + frame * FRAME_MS <= performance.now() + 1) {
          const payload = frame < promptFrames ? frameOf(prompt, frame) : MULAW_SILENCE_FRAME;
          const datagram = buildRtp({
            payloadType: PCMU_PAYLOAD_TYPE,
            marker: frame === 0,
            sequence: firstSequence + frame,
            timestamp: firstTimestamp + frame * FRAME_SAMPLES,
            ssrc,
            payload,
          });
          socket.send(datagram, remote.port, remote.address);
          sent += 1;
          frame += 1;
        }
        timer = setTimeout(tick, Math.max(0, start + frame * FRAME_MS - performance.now()));
      };
      tick();
    },
    samples() {
      const total = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
      const out = new Int16Array(total);
      let offset = 0;
      for (const chunk of chunks) {
        out.set(chunk, offset);
        offset += chunk.length;
      }
      return out;
    },
    onFrame(listener) {
      listeners.push(listener);
    },
    close() {
      if (closed) return Promise.resolve();
      closed = true;
      clearTimeout(timer);
      return new Promise<void>((resolve) => socket.close(() => resolve()));
    },
  };
}
