// Servers under test run in child processes, so the load generator does not share their CPU time
// slice of the event loop; each child is killed when the benchmark ends.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('..', import.meta.url));

/** Starts `node <script>` from the repository root and resolves once `ready` matches its output. */
export function startProcess(args, env, ready, timeoutMs = 120_000) {
  const child = spawn(process.execPath, args, {
    cwd: REPO,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const stop = () => child.kill('SIGTERM');
  // Without a pattern to wait for, the caller checks readiness itself (e.g. waitHealthy).
  if (ready === null)
    return Promise.resolve({ match: [], output: () => output, stop, pid: child.pid });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready in time:\n${output}`)), timeoutMs);
    const onData = (chunk) => {
      output += chunk;
      const match = ready.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ match, output: () => output, stop, pid: child.pid });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)));
  });
}

/** A TCP port free right now on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Polls `${url}/healthz` until it answers 200. */
export async function waitHealthy(url, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${url} not healthy in time`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
