#!/usr/bin/env node
/**
 * Writes asyncapi/events.yaml from the zod event schemas (dist/asyncapi.js, so run after tsc).
 *
 *   node scripts/asyncapi.mjs          write it (`gen:asyncapi`, which compiles first)
 *   node scripts/asyncapi.mjs --check  write nothing; fail when the file differs (`check:gen`)
 */
import { readFile, writeFile } from 'node:fs/promises';
import { stringify } from 'yaml';
import { asyncapiDocumentPath, buildAsyncApiDocument } from '../dist/asyncapi.js';

const path = asyncapiDocumentPath();
const expected = stringify(buildAsyncApiDocument(), { lineWidth: 100 });
if (process.argv.includes('--check')) {
  const current = await readFile(path, 'utf8').catch(() => null);
  if (current !== expected) {
    console.error(
      'asyncapi/events.yaml differs from the event schemas; run the gen:asyncapi script',
    );
    process.exit(1);
  }
} else {
  await writeFile(path, expected);
  process.stdout.write('generated: asyncapi/events.yaml\n');
}
