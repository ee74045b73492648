import { spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import alawmulaw from 'alawmulaw';

/**
 * Test peers: SIPp (Debian `sip-tester`) as the calling user agent, and a UDP socket that plays
 * the caller's RTP receiver. Neither shares code with the callee.
 */
const scenarios = join(dirname(fileURLToPath(import.meta.url)), 'scenarios');
const workDir = mkdtempSync(join(tmpdir(), 'sip-callee-test-'));

/** A free UDP port on loopback (bound, read, released). */
export async function freeUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(resolve));
  return port;
}

/** A scenario file from test/scenarios with its {{placeholders}} filled in. */
export function scenario(name: string, values: Record<string, string | number>): string {
  let text = readFileSync(join(scenarios, `${name}.xml`), 'utf8');
  for (const [key, value] of Object.entries(values)) {
    text = text.replaceAll(`{{${key}}}`, String(value));
  }
  if (/\{\{\w+\}\}/.test(text)) throw new Error(`scenario ${name}: placeholder left unfilled`);
  const path = join(workDir, `${name}-${process.hrtime.bigint()}.xml`);
  writeFileSync(path, text);
  return path;
}

export interface SippRun {
  /** 0 when every call of the scenario succeeded. */
  code: number | null;
  /** SIPp's -trace_msg log: every message sent and received. */
  messages: string;
  output: string;
}

/** Runs one SIPp call (`-m 1`) against the callee: `-sn uac` or a scenario file. */
export async function runSipp(options: {
  target: { host: string; port: number };
  service: string;
  scenarioFile?: string;
  timeoutSeconds?: number;
}): Promise<SippRun> {
  const [sipPort, mediaPort] = [await freeUdpPort(), await freeUdpPort()];
  const messageFile = join(workDir, `messages-${sipPort}.log`);
  const args = [
    ...(options.scenarioFile ? ['-sf', options.scenarioFile] : ['-sn', 'uac']),
    `${options.target.host}:${options.target.port}`,
    ...['-s', options.service, '-m', '1', '-i', '127.0.0.1', '-p', String(sipPort)],
    ...['-mp', String(mediaPort), '-nostdin', '-trace_msg', '-message_file', messageFile],
    ...['-timeout', `${options.timeoutSeconds ?? 20}s`, '-timeout_error'],
  ];
  const child = spawn('sipp', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', (error) =>
      reject(new Error(`sipp could not start (apt-get install sip-tester): ${error.message}`)),
    );
    child.once('close', resolve);
  });
  let messages = '';
  try {
    messages = readFileSync(messageFile, 'latin1');
  } catch {
    // SIPp writes the file only once a message went out.
  }
  return { code, messages, output };
}

/** How many times a status line (`SIP/2.0 486`) or request line (`BYE `) starts a message. */
export function countMessages(messages: string, startLine: string): number {
  return messages.split('\n').filter((line) => line.startsWith(startLine)).length;
}

/** The caller's RTP receiver: decodes what the callee sends. */
export async function rtpSink() {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const frames: Int16Array[] = [];
  socket.on('message', (datagram) => {
    // Fixed 12-byte header (SIPp's callee answers carry no CSRC or extension), PT 0 only.
    if (datagram.length > 12 && ((datagram[1] ?? 0) & 0x7f) === 0) {
      frames.push(alawmulaw.mulaw.decode(datagram.subarray(12)));
    }
  });
  return {
    port: socket.address().port,
    frames,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

/** dBFS of one frame. */
export function frameLevel(frame: Int16Array): number {
  let sum = 0;
  for (const value of frame) sum += (value / 32768) ** 2;
  return sum > 0 ? 10 * Math.log10(sum / frame.length) : -99;
}

/** Zero crossings in a frame: 40 per 20 ms frame for a 1 kHz tone. */
export function zeroCrossings(frame: Int16Array): number {
  let count = 0;
  for (let i = 1; i < frame.length; i++) {
    if ((frame[i - 1] ?? 0) < 0 !== (frame[i] ?? 0) < 0) count++;
  }
  return count;
}

/**
 * `seconds` of caller "speech" as a raw mu-law file for SIPp's rtp_stream: a 220 Hz voice with
 * a 4 Hz syllable rhythm (its level varies by more than 6 dB, like speech).
 */
export function speechFile(seconds: number): string {
  const samples = new Int16Array(Math.round(seconds * 8000));
  for (let i = 0; i < samples.length; i++) {
    const t = i / 8000;
    const syllables = 0.55 + 0.45 * Math.sin(2 * Math.PI * 4 * t);
    samples[i] = Math.round(
      9000 * syllables * (Math.sin(2 * Math.PI * 220 * t) + 0.5 * Math.sin(2 * Math.PI * 660 * t)),
    );
  }
  const path = join(workDir, `speech-${seconds}s.ulaw`);
  writeFileSync(path, alawmulaw.mulaw.encode(samples));
  return path;
}

export async function control(
  url: string,
  init: { method?: string; body?: unknown } = {},
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, {
    method: init.method ?? 'GET',
    ...(init.body !== undefined && {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(init.body),
    }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** Polls until `check` returns a value (not undefined), or fails after `timeoutMs`. */
export async function eventually<T>(check: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
