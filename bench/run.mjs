// `pnpm bench`: runs every *.bench.mjs here (or those named on the command line) and prints a
// Markdown table per benchmark, ready to paste into RESULTS.md with the date and machine.
import { readdirSync } from 'node:fs';
import os from 'node:os';

const print = (line = '') => process.stdout.write(`${line}\n`);
const wanted = process.argv.slice(2);
const files = readdirSync(new URL('.', import.meta.url))
  .filter((f) => f.endsWith('.bench.mjs'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)));

print(
  `# ${new Date().toISOString().slice(0, 10)} — ${os.cpus().length} × ${os.cpus()[0]?.model}, Node ${process.version}\n`,
);
for (const file of files) {
  const { run } = await import(`./${file}`);
  for (const { title, rows } of [await run()].flat()) {
    const columns = Object.keys(rows[0] ?? {});
    print(`## ${title}\n`);
    print(`| ${columns.join(' | ')} |`);
    print(`|${columns.map(() => '---').join('|')}|`);
    for (const row of rows)
      print(
        `| ${columns.map((c) => (typeof row[c] === 'object' ? JSON.stringify(row[c]) : row[c])).join(' | ')} |`,
      );
    print();
  }
}
process.exit(0);
