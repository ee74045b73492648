// Servers under test run in child processes, so the load generator does not share their CPU time
// slice of the event loop; each child is killed when the benchmark ends.
import { spawn } from 'node:child_process';
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
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready in time:\n${output}`)), timeoutMs);
    const onData = (chunk) => {
      output += chunk;
      const match = ready.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ match, output: () => output, stop: () => child.kill('SIGTERM') });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)));
  });
}
