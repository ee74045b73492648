import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** infra/jsmpp-smsc, from src/ or dist/ of this package alike. */
const PROJECT_DIR = fileURLToPath(new URL('../../../infra/jsmpp-smsc/', import.meta.url));
const JAR = join(PROJECT_DIR, 'target', 'jsmpp-smsc.jar');

export interface JsmppSmscOptions {
  systemId?: string;
  password?: string;
  /** Delay before the delivery receipt of a submit_sm that asked for one; default 100 ms. */
  receiptDelayMs?: number;
  /** How many submits GET /submits can return; default 10,000. */
  keepSubmits?: number;
}

export interface JsmppSmsc {
  port: number;
  /** Base URL of the control API: /stats, /submits, /refuse-binds?on=, /reset, /restart-ids. */
  controlUrl: string;
  /** The JVM's process id (a benchmark charges its CPU time to the SMSC). */
  pid: number | undefined;
  stop(): Promise<void>;
}

/** A submit_sm as the jsmpp SMSC received it (GET /submits). */
export interface JsmppSubmit {
  messageId: string;
  atMs: number;
  sourceAddrHex: string;
  sourceAddrTon: number;
  sourceAddrNpi: number;
  destinationAddr: string;
  dataCoding: number;
  esmClass: number;
  registeredDelivery: number;
  shortMessageHex: string;
}

function commandWorks(command: string, args: string[]): boolean {
  try {
    execFileSync(command, args, { stdio: 'ignore', timeout: 30_000 });
    return true;
  } catch {
    return false;
  }
}

function newestSourceMs(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'target') continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSourceMs(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function jarIsCurrent(): boolean {
  return existsSync(JAR) && statSync(JAR).mtimeMs >= newestSourceMs(PROJECT_DIR);
}

/**
 * Why the jsmpp SMSC cannot run here (no java, or no jar and no mvn/javac to build it), or
 * undefined when it can. Tests skip locally on a reason; CI installs both and must not skip.
 */
export function jsmppSmscMissing(): string | undefined {
  if (!commandWorks('java', ['-version'])) return 'java is not installed';
  if (jarIsCurrent()) return undefined;
  if (!commandWorks('mvn', ['-v'])) return 'mvn is not installed (needed to build the jar)';
  if (!commandWorks('javac', ['-version'])) return 'javac (a JDK) is not installed';
  return undefined;
}

/** Builds target/jsmpp-smsc.jar when it is missing or older than its sources. */
export function buildJsmppSmsc(): string {
  if (!jarIsCurrent()) {
    execFileSync('mvn', ['-q', '-f', join(PROJECT_DIR, 'pom.xml'), 'package'], {
      stdio: ['ignore', 'ignore', 'inherit'],
      timeout: 600_000,
    });
  }
  return JAR;
}

/**
 * Starts the jsmpp SMSC (infra/jsmpp-smsc) on free loopback ports, building it first if needed,
 * and resolves once it printed both ports.
 */
export async function startJsmppSmsc(options: JsmppSmscOptions = {}): Promise<JsmppSmsc> {
  const jar = buildJsmppSmsc();
  const args = [
    // jsmpp decodes C-octet strings with the default charset: Latin-1 keeps every octet.
    '-Dfile.encoding=ISO-8859-1',
    // jsmpp logs every bind and unbind at info; its warnings and errors still reach stderr.
    '-Dorg.slf4j.simpleLogger.defaultLogLevel=warn',
    '-jar',
    jar,
    `--system-id=${options.systemId ?? 'smsc'}`,
    `--password=${options.password ?? 'smsc'}`,
    `--receipt-delay-ms=${options.receiptDelayMs ?? 100}`,
    `--keep-submits=${options.keepSubmits ?? 10_000}`,
    '--port=0',
    '--control-port=0',
  ];
  const child = spawn('java', args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const ports = await readPorts(child);
    return {
      port: ports.smpp,
      controlUrl: `http://127.0.0.1:${ports.control}`,
      pid: child.pid,
      async stop() {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        await exited;
      },
    };
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
}

function readPorts(child: ChildProcess): Promise<{ smpp: number; control: number }> {
  return new Promise((resolve, reject) => {
    if (!child.stdout) throw new Error('jsmpp-smsc: no stdout');
    const lines = createInterface({ input: child.stdout });
    let control: number | undefined;
    const timer = setTimeout(() => reject(new Error('jsmpp-smsc did not start in 30 s')), 30_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`jsmpp-smsc exited with ${code} before listening`));
    });
    lines.on('line', (line) => {
      const match = /^jsmpp-smsc (control|listening) (\d+)$/.exec(line);
      if (!match) return;
      if (match[1] === 'control') control = Number(match[2]);
      else if (control !== undefined) {
        clearTimeout(timer);
        resolve({ smpp: Number(match[2]), control });
      }
    });
  });
}
