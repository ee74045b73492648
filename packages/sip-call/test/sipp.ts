// Runs SIPp (Debian sip-tester), a SIP peer nobody here wrote, as the UAS of one call.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeUdpPort } from '../src/rtp/ports.js';

export const SIPP_HOST = '127.0.0.2';
export const sippInstalled = !spawnSync('sipp', ['-v']).error;
export const SKIP_MESSAGE =
  'sipp is not installed (apt-get install sip-tester; .ci/run installs it): SIPp interop tests skipped';

export interface SippRun {
  host: string;
  port: number;
  /** Resolves when SIPp has exited: its exit code (0 = every call succeeded) and final statistics. */
  done: Promise<{ code: number | null; stats: Record<string, string>; output: string }>;
  kill(): void;
}

export async function startSipp(
  scenario: string,
  options: {
    keys?: Record<string, string>;
    /** Literal replacements in the scenario text, for what SIPp reads before keywords apply. */
    replace?: Record<string, string>;
    rtpEcho?: boolean;
    timeoutSeconds?: number;
  } = {},
): Promise<SippRun> {
  const dir = mkdtempSync(join(tmpdir(), 'sipp-'));
  let text = readFileSync(new URL(`./sipp/${scenario}`, import.meta.url), 'utf8');
  for (const [from, to] of Object.entries(options.replace ?? {})) text = text.replaceAll(from, to);
  const scenarioFile = join(dir, scenario);
  writeFileSync(scenarioFile, text);
  const port = await freeUdpPort(SIPP_HOST);
  const mediaPort = await freeEvenPortPair();
  const args = [
    ...['-sf', scenarioFile],
    ...['-i', SIPP_HOST, '-p', String(port), '-t', 'u1'],
    ...['-mi', SIPP_HOST, '-mp', String(mediaPort)],
    ...['-m', '1', '-nostdin', '-timeout', `${options.timeoutSeconds ?? 30}s`, '-timeout_error'],
    ...[
      '-trace_stat',
      '-stf',
      join(dir, 'stats.csv'),
      '-trace_err',
      '-error_file',
      join(dir, 'errors.log'),
    ],
    ...(options.rtpEcho ? ['-rtp_echo'] : []),
    ...Object.entries(options.keys ?? {}).flatMap(([k, v]) => ['-key', k, v]),
  ];
  const child: ChildProcess = spawn('sipp', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (d) => {
    output = (output + String(d)).slice(-20_000);
  });
  child.stderr?.on('data', (d) => {
    output = (output + String(d)).slice(-20_000);
  });
  const done = new Promise<{ code: number | null; stats: Record<string, string>; output: string }>(
    (resolve) => {
      child.on('exit', (code) => {
        const errors = readdirSync(dir).includes('errors.log')
          ? readFileSync(join(dir, 'errors.log'), 'utf8')
          : '';
        if (process.env.SIPP_DEBUG) process.stderr.write(`sipp dir ${dir} code ${code}\n`);
        resolve({ code, stats: lastStats(join(dir, 'stats.csv')), output: output + errors });
      });
    },
  );
  // SIPp is ready once its SIP port is bound. Read from /proc rather than probed by binding:
  // a probe holding the port at the wrong moment would make SIPp fail to start.
  const until = Date.now() + 10_000;
  while (!udpBound(SIPP_HOST, port) && child.exitCode === null && Date.now() < until)
    await new Promise((r) => setTimeout(r, 50));
  return { host: SIPP_HOST, port, done, kill: () => child.kill('SIGKILL') };
}

/** The last row of SIPp's statistics file, by column name (SuccessfulCall(C), FailedCall(C), ...). */
function lastStats(file: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return {};
  }
  const lines = text.trim().split('\n');
  const header = (lines[0] ?? '').split(';');
  const last = (lines[lines.length - 1] ?? '').split(';');
  return Object.fromEntries(header.map((name, i) => [name, last[i] ?? '']));
}

/** Whether a UDP socket is bound to host:port on this machine (Linux /proc/net/udp). */
function udpBound(host: string, port: number): boolean {
  const [a = 0, b = 0, c = 0, d = 0] = host.split('.').map(Number);
  const hex = (n: number, width: number) => n.toString(16).toUpperCase().padStart(width, '0');
  // /proc prints the IPv4 address as a little-endian 32-bit word.
  const local = `${hex(d, 2)}${hex(c, 2)}${hex(b, 2)}${hex(a, 2)}:${hex(port, 4)}`;
  try {
    return readFileSync('/proc/net/udp', 'utf8').includes(` ${local} `);
  } catch {
    return true; // no /proc: fall through to the call's own retransmissions
  }
}

/** An even port p with p and p + 2 free on the SIPp address (-rtp_echo binds both). */
async function freeEvenPortPair(): Promise<number> {
  for (let i = 0; i < 50; i++) {
    const port = 20_000 + 2 * Math.floor(Math.random() * 10_000);
    if ((await udpPortFree(port)) && (await udpPortFree(port + 2))) return port;
  }
  throw new Error('no free media port pair for SIPp');
}

function udpPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createSocket('udp4');
    socket.once('error', () => {
      socket.close();
      resolve(false);
    });
    socket.bind(port, SIPP_HOST, () => socket.close(() => resolve(true)));
  });
}
