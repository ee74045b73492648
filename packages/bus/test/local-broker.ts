import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const infraKafka = resolve(import.meta.dirname, '../../../infra/kafka');

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

export interface LocalBroker {
  brokers: string[];
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it and deletes its data. */
  destroy(): Promise<void>;
}

/**
 * A broker of our own, started with infra/kafka's scripts on free ports and its own data, so
 * that restarting it does not disturb anyone else using the shared broker on 9092.
 */
export async function startLocalBroker(): Promise<LocalBroker> {
  const home = await mkdtemp(join(tmpdir(), 'bus-test-kafka-'));
  const port = await freePort();
  const env = {
    ...process.env,
    KAFKA_HOME: home,
    KAFKA_PORT: String(port),
    KAFKA_CONTROLLER_PORT: String(await freePort()),
  };
  const script = (name: string, ...args: string[]) =>
    run('bash', [join(infraKafka, name), ...args], { env, timeout: 120_000 }).then(() => {});
  await script('start.sh');
  return {
    brokers: [`127.0.0.1:${port}`],
    stop: () => script('stop.sh'),
    start: () => script('start.sh'),
    async destroy() {
      await script('stop.sh', '--wipe');
      await rm(home, { recursive: true, force: true });
    },
  };
}
