import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import got from 'got';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './platform.js';
import { waitFor } from './sms-path.js';

/**
 * Two `pnpm start` suites on one machine: with PORT, ADMIN_PORT and SMSC_CONTROL_PORT set apart
 * (and each its own data), every other port the suite opens is picked free, so neither collides
 * with the other. A fixed port anywhere would make the second one die with EADDRINUSE.
 */
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const children: ChildProcess[] = [];

async function startSuiteProcess(name: string) {
  const env = {
    PATH: process.env.PATH ?? '',
    PORT: String(await freePort()),
    ADMIN_PORT: String(await freePort()),
    SMSC_CONTROL_PORT: String(await freePort()),
    EMBEDDED_DATA_DIR: 'memory',
    DEMO_USERNAME: name,
    DEMO_PASSWORD: `${name}-password`,
    DEMO_API_KEY: `${name}_api_key_0123456789`,
  };
  const child = spawn(process.execPath, ['infra/suite/dist/main.js'], {
    cwd: REPO,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  const ready = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = /^ready: (\S+)$/m.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}:\n${output}`)));
  });
  return { name, env, ready };
}

afterAll(async () => {
  await Promise.all(
    children.map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }),
  );
}, 60_000);

describe('two embedded suites side by side', () => {
  it('when two suites start at once with their own three ports, then both become ready and each delivers an SMS', async () => {
    const suites = await Promise.all([startSuiteProcess('left'), startSuiteProcess('right')]);
    const urls = await Promise.all(suites.map((suite) => suite.ready));
    expect(urls).toEqual(suites.map((suite) => `http://127.0.0.1:${suite.env.PORT}`));

    for (const [i, suite] of suites.entries()) {
      const api = got.extend({
        prefixUrl: urls[i],
        username: suite.env.DEMO_USERNAME,
        password: suite.env.DEMO_PASSWORD,
        responseType: 'json',
        throwHttpErrors: false,
        retry: { limit: 0 },
      });
      const sent = await api.post<{ messageId: string }>('v1/sms/send', {
        json: { to: '0701234567', from: 'ACME', message: `from ${suite.name}` },
      });
      expect(sent.statusCode).toBe(202);
      const delivered = await waitFor(async () => {
        const res = await api.get<{ status: string }>(`v1/sms/${sent.body.messageId}`);
        return res.body.status === 'delivered';
      }, 30_000);
      expect(delivered).toBe(true);
    }
  }, 240_000);
});
