// Voice calls (issue 14): how many concurrent calls one process carries with its RTP frames sent
// on time. Each level places N calls at once through @msg/sip-call to SIPp (a UAS answering every
// call, -rtp_echo sending each packet back, as a callee's audio would come back), each call
// playing 3 s of audio (150 frames of 20 ms), the starts spread over one second. Lateness of a frame = when it left - its slot on the
// call's absolute clock. The floor is one call alone in the same run; a level "carries" its N
// calls when the p99 lateness over all its frames stays under 10 ms. Levels stop when p99 passes
// 100 ms or a call is not answered, at BENCH_SIP_MAX_CALLS, or after BENCH_SIP_MAX_SECONDS. The
// lateness includes the time the OS does not run the process: read it with the load column.
// Smaller: BENCH_SIP_MAX_CALLS=50 pnpm bench sip-calls
import { spawn, spawnSync } from 'node:child_process';
import { createSocket } from 'node:dgram';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { createSipCaller } from '@msg/sip-call';

const MAX_CALLS = Number(process.env.BENCH_SIP_MAX_CALLS ?? 400);
const MAX_SECONDS = Number(process.env.BENCH_SIP_MAX_SECONDS ?? 120);
const LEVELS = [1, 10, 25, 50, 100, 150, 200, 300, 400].filter((n) => n <= MAX_CALLS);
const P99_LIMIT_MS = 10;
const RAMP_MS = 1000;
const HOST = '127.0.0.3';
const SCENARIO = fileURLToPath(
  new URL('../packages/sip-call/test/sipp/uas-answer.xml', import.meta.url),
);
const audio = Buffer.from(Array.from({ length: 8000 * 3 }, (_, i) => (i % 16 < 8 ? 0x20 : 0xa0)));

function freePort() {
  return new Promise((resolve) => {
    const s = createSocket('udp4');
    s.bind(0, HOST, () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function percentile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

async function level(calls, sippPort) {
  const reports = [];
  const caller = await createSipCaller({
    trunk: { host: HOST, port: sippPort },
    localAddress: '127.0.0.1',
    onCallEnded: (report) => reports.push(report),
  });
  const started = performance.now();
  const outcomes = await Promise.all(
    Array.from({ length: calls }, async (_, i) => {
      // Starts spread over the first second, as a service's queue would release them.
      await new Promise((r) => setTimeout(r, (i * RAMP_MS) / calls));
      return caller.call({
        from: '+46700000001',
        to: `+4670100${String(i).padStart(4, '0')}`,
        audio,
        playCount: 1,
        ringTimeoutMs: 10_000,
        machineDetection: false,
      });
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await caller.close();
  const lateness = reports.flatMap((r) => r.rtp.latenessMs).sort((a, b) => a - b);
  const answered = outcomes.filter((o) => o.kind === 'answered').length;
  const others = {};
  for (const o of outcomes)
    if (o.kind !== 'answered') {
      const key = o.kind === 'error' ? o.message : o.kind;
      others[key] = (others[key] ?? 0) + 1;
    }
  const sent = reports.reduce((n, r) => n + r.rtp.packetsSent, 0);
  const echoed = reports.reduce((n, r) => n + r.rtp.packetsReceived, 0);
  return {
    calls,
    answered,
    'not answered': Object.keys(others).length ? JSON.stringify(others) : '',
    'frames sent': sent,
    'echoes received': echoed,
    'p50 ms': percentile(lateness, 0.5).toFixed(2),
    'p99 ms': percentile(lateness, 0.99).toFixed(2),
    'max ms': (lateness[lateness.length - 1] ?? 0).toFixed(2),
    seconds: seconds.toFixed(1),
    'load (1 min)': os.loadavg()[0].toFixed(1),
    p99: percentile(lateness, 0.99),
  };
}

export async function run() {
  const title = 'Voice calls: concurrent SIP calls with RTP on time (`pnpm bench sip-calls`)';
  if (spawnSync('sipp', ['-v']).error)
    return { title, rows: [{ skipped: 'sipp is not installed (apt-get install sip-tester)' }] };
  const sippPort = await freePort();
  const mediaPort = 30_000 + 2 * Math.floor(Math.random() * 5000);
  const sipp = spawn(
    'sipp',
    [
      ...['-sf', SCENARIO, '-i', HOST, '-p', String(sippPort), '-t', 'u1'],
      ...['-mi', HOST, '-mp', String(mediaPort), '-rtp_echo', '-nostdin'],
      ...['-timeout', `${MAX_SECONDS + 30}s`],
    ],
    { stdio: 'ignore' },
  );
  await new Promise((r) => setTimeout(r, 1000));
  const deadline = Date.now() + MAX_SECONDS * 1000;
  const rows = [];
  try {
    for (const calls of LEVELS) {
      if (Date.now() > deadline) break;
      const row = await level(calls, sippPort);
      rows.push(row);
      // Past 10 × the limit the process is clearly saturated: larger levels tell nothing more.
      if (row.p99 >= 10 * P99_LIMIT_MS || row.answered < calls) break;
    }
  } finally {
    sipp.kill('SIGKILL');
  }
  const floor = rows[0]?.p99 || 0.01;
  // Carried: the largest level such that it and every smaller level kept p99 under the limit.
  const failed = rows.findIndex((r) => r.p99 >= P99_LIMIT_MS || r.answered !== r.calls);
  const carried = (failed === -1 ? rows.at(-1) : rows[failed - 1])?.calls ?? 0;
  return {
    title: `${title}: ${carried} concurrent calls carried with p99 lateness < ${P99_LIMIT_MS} ms`,
    rows: rows.map(({ p99, ...row }) => ({
      ...row,
      'p99 / floor (1 call)': (p99 / floor).toFixed(1),
    })),
  };
}
