// A Kafka broker of the benchmark's own (infra/kafka scripts, a temporary KAFKA_HOME, free ports),
// wiped when stopped. Needed whenever a benchmark runs the platform's consumers: two suites on the
// shared broker join the same consumer groups (batch-status, the sms service's, by default the
// connector's) and take each other's messages — a batch then "completes" through another run's
// connector, or never does.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freePort } from './processes.mjs';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);

/** Starts the broker; `brokers` to connect to, `stop()` to stop it and delete its data. */
export async function startPrivateKafka() {
  const home = await mkdtemp(join(tmpdir(), 'bench-kafka-'));
  const port = await freePort();
  const env = {
    ...process.env,
    KAFKA_PORT: String(port),
    KAFKA_CONTROLLER_PORT: String(await freePort()),
    KAFKA_HOME: home,
  };
  const script = (name, ...args) =>
    run('bash', [`infra/kafka/${name}`, ...args], { cwd: REPO, env, timeout: 180_000 });
  await script('start.sh');
  return {
    brokers: `127.0.0.1:${port}`,
    async stop() {
      await script('stop.sh', '--wipe');
      await rm(home, { recursive: true, force: true });
    },
  };
}
