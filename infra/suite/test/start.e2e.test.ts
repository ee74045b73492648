import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type LocalServer, listenLocal } from '@msg/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './platform.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const START_MS = 240_000;

interface Run {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** Runs `command` in the repository as a user would, in its own process group, on free ports. */
function run(command: string, args: string[], env: Record<string, string>): Run {
  let stdout = '';
  let stderr = '';
  const child = spawn(command, args, {
    cwd: REPO,
    detached: true,
    env: { ...process.env, EMBEDDED_DATA_DIR: 'memory', LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

async function freePorts() {
  return {
    PORT: String(await freePort()),
    ADMIN_PORT: String(await freePort()),
    SMSC_CONTROL_PORT: String(await freePort()),
  };
}

/**
 * Issue 23 item 10: `pnpm start` printed nothing for over a minute while it built a fresh clone,
 * and a port already in use ended in a raw EADDRINUSE stack.
 */
describe('pnpm start', () => {
  it(
    'when it runs, then it says what it is doing (building, database, each service, seeding) before "ready:"',
    async () => {
      const start = run('pnpm', ['start'], await freePorts());
      try {
        const deadline = Date.now() + START_MS;
        while (!/^ready: /m.test(start.stdout()) && Date.now() < deadline) {
          if (start.child.exitCode !== null) break;
          await new Promise((r) => setTimeout(r, 250));
        }
        const lines = start.stdout().split('\n');
        const at = (pattern: RegExp) => lines.findIndex((line) => pattern.test(line));
        const steps = [
          /^build: building the platform/,
          /^build: done in \d+ s/,
          /^start: starting the embedded PostgreSQL 18 \(data in a temporary directory\)/,
          /^start: starting admin \(migrating its schema first\)/,
          /^start: starting rcs /,
          /^start: starting the gateway/,
          /^start: seeding the demo account/,
          /^ready: http:\/\//,
        ];
        const found = steps.map(at);
        expect(
          found.every((index) => index >= 0),
          start.stdout() + start.stderr(),
        ).toBe(true);
        expect([...found].sort((a, b) => a - b)).toEqual(found);
      } finally {
        if (start.child.pid) process.kill(-start.child.pid, 'SIGTERM');
        await start.exited;
      }
    },
    START_MS + 60_000,
  );

  describe('on a taken port', () => {
    let taken: LocalServer;
    let port: number;

    beforeAll(async () => {
      taken = await listenLocal(() => {});
      port = taken.port;
    });
    afterAll(() => taken.close());

    for (const setting of ['PORT', 'ADMIN_PORT', 'SMSC_CONTROL_PORT']) {
      it(`when ${setting} is in use, then it exits 1 naming ${setting}, without a stack`, async () => {
        const start = run(process.execPath, ['infra/suite/dist/main.js'], {
          ...(await freePorts()),
          [setting]: String(port),
        });
        const code = await Promise.race([
          start.exited,
          new Promise<'running'>((r) => setTimeout(() => r('running'), 60_000)),
        ]);
        if (code === 'running' && start.child.pid) process.kill(-start.child.pid, 'SIGKILL');
        expect(code, start.stdout() + start.stderr()).toBe(1);
        expect(start.stderr()).toBe(
          `start: port ${port} on 127.0.0.1 is in use: set ${setting} to a free port (0 picks one)\n`,
        );
      });
    }
  });
});
