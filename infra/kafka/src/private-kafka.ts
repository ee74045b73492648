// A one-node Kafka broker of a test's or benchmark's own (infra/kafka's scripts, a scratch
// KAFKA_HOME, free ports), wiped when stopped. Needed whenever a run restarts the broker (it would
// disturb everyone else's tests on the shared one) or runs the platform's consumers: two suites on
// the shared broker join the same consumer groups (batch-status, the sms service's, the
// connector's) and take each other's messages, and its topics still hold earlier runs' messages.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** infra/kafka, from src/ or dist/ of this package alike: where start.sh and stop.sh are. */
const SCRIPTS = fileURLToPath(new URL('../', import.meta.url));
const run = promisify(execFile);

export interface PrivateKafka {
  /** host:port to connect to. */
  brokers: string;
  /** Stops the broker (controlled shutdown), then starts it again on the same ports and data. */
  restart(): Promise<{ stoppedAt: number; startedAt: number }>;
  /** Stops the broker and keeps its data, for a test that acts while it is down. */
  pause(): Promise<void>;
  /** Starts a paused broker again on the same ports and data. */
  resume(): Promise<void>;
  /** Stops the broker and deletes its data. */
  stop(): Promise<void>;
  /** The broker's process id now (a restart changes it), for a benchmark that charges its CPU. */
  pid(): Promise<number | undefined>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

/** Starts the broker with infra/kafka/start.sh (the jars are the checkout's, fetched once). */
export async function startPrivateKafka(): Promise<PrivateKafka> {
  const home = await mkdtemp(join(tmpdir(), 'msg-kafka-'));
  const port = await freePort();
  const env = {
    ...process.env,
    KAFKA_PORT: String(port),
    KAFKA_CONTROLLER_PORT: String(await freePort()),
    KAFKA_HOME: home,
  };
  const script = (name: string, ...args: string[]) =>
    run('bash', [`${SCRIPTS}${name}`, ...args], { env, timeout: 180_000 }).then(() => undefined);
  await script('start.sh');
  return {
    brokers: `127.0.0.1:${port}`,
    async restart() {
      const stoppedAt = Date.now();
      await script('stop.sh');
      await script('start.sh');
      return { stoppedAt, startedAt: Date.now() };
    },
    pause: () => script('stop.sh'),
    resume: () => script('start.sh'),
    async stop() {
      await script('stop.sh', '--wipe');
      await rm(home, { recursive: true, force: true });
    },
    // start.sh's pid file (env.sh: KAFKA_PID_FILE).
    pid: () =>
      readFile(join(home, 'kafka.pid'), 'utf8').then(
        (text) => Number(text.trim()) || undefined,
        () => undefined,
      ),
  };
}
