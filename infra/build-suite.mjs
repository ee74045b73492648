#!/usr/bin/env node
// Builds what `pnpm start` and `pnpm fuzz` run (turbo, `--filter=@msg/suite...`), saying what it
// does: a fresh clone builds about forty packages for a minute or two, and a silent minute looks
// hung. One line per package as its build begins, a line every 15 s while nothing else is said,
// and the time at the end; turbo's own output is kept and printed only when the build fails.
//
//   node infra/build-suite.mjs        exit status: turbo's
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const HEARTBEAT_MS = 15_000;
const say = (line) => process.stdout.write(`build: ${line}\n`);
const seconds = (since) => `${Math.round((Date.now() - since) / 1000)} s`;

const startedAt = Date.now();
say(
  'building the platform (a fresh clone takes a minute or two; later starts rebuild only what changed)',
);

// `full` logs: turbo says "<package>:<task>: cache miss, executing <hash>" as each task begins.
const TURBO = createRequire(`${REPO}package.json`).resolve('turbo/bin/turbo');
const turbo = spawn(
  process.execPath,
  [TURBO, 'run', 'build', '--filter=@msg/suite...', '--output-logs=full'],
  { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] },
);
/** What turbo said, less the logs it replays from its cache: shown if the build fails. */
const output = [];
const replayed = new Set();
let lastSaid = Date.now();
let built = 0;
let upToDate = 0;
const TASK_LINE = /^(@[\w.-]+\/[\w.-]+):(\w+): /;
const TASK_BEGINS = /: cache (hit|miss|bypass)/;
for (const stream of [turbo.stdout, turbo.stderr]) {
  createInterface({ input: stream }).on('line', (line) => {
    const task = TASK_LINE.exec(line);
    const begins = task && TASK_BEGINS.exec(line);
    if (begins?.[1] === 'hit') {
      replayed.add(task[0]);
      upToDate += 1;
    } else if (begins) {
      built += 1;
      lastSaid = Date.now();
      say(`${task[2] === 'gen' ? 'generating code of' : 'compiling'} ${task[1]}`);
    }
    if (!task || !replayed.has(task[0])) output.push(line);
  });
}
const heartbeat = setInterval(() => {
  if (Date.now() - lastSaid < HEARTBEAT_MS) return;
  lastSaid = Date.now();
  say(`still building (${seconds(startedAt)})`);
}, 1000);

const code = await new Promise((resolve) => turbo.on('close', (exitCode) => resolve(exitCode)));
clearInterval(heartbeat);
if (code !== 0) {
  process.stderr.write(`${output.join('\n')}\n`);
  say(`failed after ${seconds(startedAt)} (turbo's output above)`);
  process.exit(code ?? 1);
}
say(`done in ${seconds(startedAt)}: ${built} tasks run, ${upToDate} up to date`);
