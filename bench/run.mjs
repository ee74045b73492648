// `pnpm bench`: runs every *.bench.mjs here (or those named on the command line) and prints a
// Markdown table per benchmark, ready to paste into RESULTS.md with the date and machine.
import { readdirSync } from 'node:fs';
import os from 'node:os';

const wanted = process.argv.slice(2);
const files = readdirSync(new URL('.', import.meta.url))
  .filter((f) => f.endsWith('.bench.mjs'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)));

console.log(`# ${new Date().toISOString().slice(0, 10)} — ${os.cpus().length} × ${os.cpus()[0]?.model}, Node ${process.version}\n`);
for (const file of files) {
  const { run } = await import(`./${file}`);
  const { title, rows } = await run();
  const columns = Object.keys(rows[0] ?? {});
  console.log(`## ${title}\n`);
  console.log(`| ${columns.join(' | ')} |`);
  console.log(`|${columns.map(() => '---').join('|')}|`);
  for (const row of rows) console.log(`| ${columns.map((c) => (typeof row[c] === 'object' ? JSON.stringify(row[c]) : row[c])).join(' | ')} |`);
  console.log();
}
process.exit(0);
