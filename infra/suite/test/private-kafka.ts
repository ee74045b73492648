import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freePort } from './platform.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const run = promisify(execFile);

/** A one-node Kafka of this test alone: restarting it disturbs no one else's tests. */
export interface PrivateKafka {
  brokers: string;
  /** Stops the broker (controlled shutdown), then starts it again on the same ports and data. */
  restart(): Promise<{ stoppedAt: number; startedAt: number }>;
  /** Stops the broker and deletes its data. */
  stop(): Promise<void>;
}

/**
 * Starts a broker with infra/kafka/start.sh on free ports and a scratch data folder (the jars are
 * the checkout's, fetched once).
 */
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
    run('bash', [`infra/kafka/${name}`, ...args], { cwd: REPO, env, timeout: 180_000 });
  await script('start.sh');
  return {
    brokers: `127.0.0.1:${port}`,
    async restart() {
      const stoppedAt = Date.now();
      await script('stop.sh');
      await script('start.sh');
      return { stoppedAt, startedAt: Date.now() };
    },
    async stop() {
      await script('stop.sh', '--wipe');
      await rm(home, { recursive: true, force: true });
    },
  };
}
