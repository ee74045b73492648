// The audio of one call: sends G.711 mu-law in 20 ms RTP frames (payload type 0) and hands the
// callee's audio, decoded to 16-bit linear, to whoever listens (answering-machine detection).
import { randomInt } from 'node:crypto';
import type { Socket } from 'node:dgram';
import alawmulaw from 'alawmulaw';
import { paceFrames } from './pacer.js';
import { decodeRtp, encodeRtp } from './packet.js';

export const PCMU_PAYLOAD_TYPE = 0;
export const FRAME_SAMPLES = 160; // 20 ms at 8 kHz, one byte per sample
export const FRAME_MS = 20;
const MULAW_SILENCE = 0xff;

export interface RtpStats {
  packetsSent: number;
  packetsReceived: number;
  /** Lateness of each frame sent against its slot on the absolute clock, in ms. */
  latenessMs: number[];
}

/** Splits mu-law audio into 160-byte frames, padding the last one with mu-law silence. */
export function toFrames(mulaw: Buffer): Buffer[] {
  const frames: Buffer[] = [];
  for (let at = 0; at < mulaw.length; at += FRAME_SAMPLES) {
    const frame = Buffer.alloc(FRAME_SAMPLES, MULAW_SILENCE);
    mulaw.copy(frame, 0, at, Math.min(at + FRAME_SAMPLES, mulaw.length));
    frames.push(frame);
  }
  return frames;
}

export class RtpStream {
  readonly stats: RtpStats = { packetsSent: 0, packetsReceived: 0, latenessMs: [] };
  private remote: { address: string; port: number } | undefined;
  private readonly ssrc = randomInt(0, 2 ** 32);
  private sequence = randomInt(0, 2 ** 16);
  private timestamp = randomInt(0, 2 ** 32);
  private first = true;
  private stopped = false;
  private listener: ((samples: Int16Array) => void) | undefined;

  constructor(private readonly socket: Socket) {
    socket.on('message', (data) => {
      const packet = decodeRtp(data);
      if (!packet) return;
      this.stats.packetsReceived++;
      if (packet.payloadType === PCMU_PAYLOAD_TYPE && this.listener)
        this.listener(alawmulaw.mulaw.decode(packet.payload));
    });
    socket.on('error', () => {}); // ICMP unreachable and the like: the SIP dialogue decides the call
  }

  get localPort(): number {
    return this.socket.address().port;
  }

  connect(address: string, port: number): void {
    this.remote = { address, port };
  }

  onAudio(listener: ((samples: Int16Array) => void) | undefined): void {
    this.listener = listener;
  }

  /** Plays frames `times` times back to back; resolves with the frames sent (fewer if stopped). */
  async play(frames: readonly Buffer[], times: number): Promise<number> {
    const total = frames.length * times;
    const result = await paceFrames(
      total,
      FRAME_MS,
      (index) => this.send(frames[index % frames.length] ?? Buffer.alloc(0)),
      () => this.stopped,
    );
    this.stats.latenessMs.push(...result.latenessMs);
    return result.framesSent;
  }

  private send(payload: Buffer): void {
    if (!this.remote) return;
    const packet = encodeRtp({
      payloadType: PCMU_PAYLOAD_TYPE,
      marker: this.first, // first packet of the talkspurt (RFC 3551 §4.1)
      sequence: this.sequence,
      timestamp: this.timestamp,
      ssrc: this.ssrc,
      payload,
    });
    this.first = false;
    this.sequence = (this.sequence + 1) & 0xffff;
    this.timestamp = (this.timestamp + FRAME_SAMPLES) >>> 0;
    this.stats.packetsSent++;
    this.socket.send(packet, this.remote.port, this.remote.address);
  }

  /** Stops playing (the frame in flight is the last). */
  stop(): void {
    this.stopped = true;
  }

  close(): Promise<void> {
    this.stop();
    this.listener = undefined;
    return new Promise((resolve) => {
      try {
        this.socket.close(() => resolve());
      } catch {
        resolve(); // already closed
      }
    });
  }
}
