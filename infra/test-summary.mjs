// Sums the vitest JSON results of every package into one closing line: "N passed, N failed".
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
let passed = 0;
let failed = 0;
let skipped = 0;
const failedSuites = [];
for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
  const result = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  passed += result.numPassedTests;
  failed += result.numFailedTests;
  skipped += result.numPendingTests + result.numTodoTests;
  if (result.numFailedTests > 0 || result.numFailedTestSuites > 0) failedSuites.push(file);
}
if (failedSuites.length > 0) console.error(`failing: ${failedSuites.join(', ')}`);
process.stdout.write(`${passed} passed, ${failed} failed, ${skipped} skipped\n`);
process.exit(failed > 0 || failedSuites.length > 0 ? 1 : 0);
