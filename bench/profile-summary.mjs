// Where a Node process spent its CPU: reads a .cpuprofile (node --cpu-prof) and sums self time by
// package (npm package, workspace package, Node internal or native), by the package that called
// into Node (so a socket write counts for pg, kafkajs or smpp) and by function.
//
//   node bench/profile-summary.mjs <file.cpuprofile> [--from <µs>] [--to <µs>] [--top 15]
//
// --from/--to keep only the samples in that window, in the profile's clock: microseconds of the
// system's monotonic clock, the same as `process.hrtime.bigint() / 1000n` in any process on the
// machine, so a benchmark can profile a whole process and summarise only its measured phase.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('..', import.meta.url));

/** Package of a script URL: the npm package, the workspace package, `node:<module>`, or V8's name. */
export function packageOf(url, functionName) {
  // V8's own entries ((program), (garbage collector)) by name; C++ bindings (writev, ...) together.
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  const file = url.startsWith('file://') ? fileURLToPath(url) : url;
  const modules = file.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const [scope, name] = file.slice(modules + 14).split('/');
    return scope.startsWith('@') ? `${scope}/${name}` : scope;
  }
  const relative = path.relative(REPO, file);
  // services/sms/dist/x.js -> services/sms
  return relative.startsWith('..') ? file : relative.split('/').slice(0, 2).join('/');
}

function where(frame) {
  const file = frame.url.startsWith('file://') ? fileURLToPath(frame.url) : frame.url;
  const short = file.includes('/node_modules/')
    ? file.slice(file.lastIndexOf('/node_modules/') + 14)
    : path.relative(REPO, file) || file;
  return frame.url ? `${short}:${frame.lineNumber + 1}` : '';
}

/**
 * Self time (ms) per package and per function of the samples in [from, to] (µs, monotonic).
 * A sample's weight is the time until the next sample, as DevTools counts it.
 */
export function summarise(profile, { from = -Infinity, to = Infinity, top = 15 } = {}) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parentOf.set(child, node);
  /** The first package up the stack that is not Node's own: who asked for this work. */
  const callerOf = (node) => {
    for (let at = node; at; at = parentOf.get(at.id)) {
      const pkg = packageOf(at.callFrame.url, at.callFrame.functionName);
      if (at.callFrame.url && !pkg.startsWith('node:')) return pkg;
    }
    return packageOf(node.callFrame.url, node.callFrame.functionName);
  };
  const packages = new Map();
  const callers = new Map();
  const functions = new Map();
  let total = 0;
  let idle = 0;
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i];
    if (at < from || at > to) continue;
    const weight = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const node = byId.get(profile.samples[i]);
    const { callFrame } = node;
    total += weight;
    if (callFrame.functionName === '(idle)') {
      idle += weight;
      continue;
    }
    const pkg = packageOf(callFrame.url, callFrame.functionName);
    packages.set(pkg, (packages.get(pkg) ?? 0) + weight);
    const caller = callerOf(node);
    callers.set(caller, (callers.get(caller) ?? 0) + weight);
    const key = `${callFrame.functionName || '(anonymous)'} ${where(callFrame)}`;
    const entry = functions.get(key) ?? { pkg, ms: 0 };
    entry.ms += weight;
    functions.set(key, entry);
  }
  const busy = total - idle;
  const percent = (ms) => `${((100 * ms) / busy).toFixed(1)}%`;
  return {
    windowMs: Math.round(total),
    busyPercent: total > 0 ? Math.round((100 * busy) / total) : 0,
    packages: [...packages]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, ms]) => ({ package: name, selfMs: Math.round(ms), ofBusy: percent(ms) })),
    callers: [...callers]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, ms]) => ({ package: name, selfMs: Math.round(ms), ofBusy: percent(ms) })),
    functions: [...functions]
      .sort((a, b) => b[1].ms - a[1].ms)
      .slice(0, top)
      .map(([name, { pkg, ms }]) => ({
        function: name,
        package: pkg,
        selfMs: Math.round(ms),
        ofBusy: percent(ms),
      })),
  };
}

function table(rows) {
  const columns = Object.keys(rows[0] ?? {});
  return [
    `| ${columns.join(' | ')} |`,
    `|${columns.map(() => '---').join('|')}|`,
    ...rows.map(
      (row) => `| ${columns.map((c) => String(row[c]).replaceAll('|', '\\|')).join(' | ')} |`,
    ),
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [file, ...rest] = process.argv.slice(2);
  if (!file) {
    process.stderr.write(
      'usage: profile-summary.mjs <file.cpuprofile> [--from µs] [--to µs] [--top n]\n',
    );
    process.exit(2);
  }
  const option = (name) => {
    const index = rest.indexOf(`--${name}`);
    return index >= 0 ? Number(rest[index + 1]) : undefined;
  };
  const summary = summarise(JSON.parse(readFileSync(file, 'utf8')), {
    from: option('from'),
    to: option('to'),
    top: option('top'),
  });
  process.stdout.write(
    `${summary.windowMs} ms of samples, event loop busy ${summary.busyPercent}%\n\n` +
      `Self time by package\n\n${table(summary.packages)}\n\n` +
      `Self time by package, Node's own and native work charged to the package that called it\n\n${table(summary.callers)}\n\n` +
      `Self time by function\n\n${table(summary.functions)}\n`,
  );
}
