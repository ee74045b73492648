#!/usr/bin/env node
/**
 * Writes packages/contracts/asyncapi/events.yaml from the zod event schemas and every service's
 * declared topics (dist/topic-graph.js, so run after tsc). It lives here because only the suite
 * may import every service; @msg/contracts may not depend on them.
 *
 *   node scripts/asyncapi.mjs          write it (`gen:asyncapi`, which compiles first)
 *   node scripts/asyncapi.mjs --check  write nothing; fail when the file differs (`check:gen`)
 */
import { readFile, writeFile } from 'node:fs/promises';
import { asyncapiDocumentPath } from '@msg/contracts';
import { platformAsyncapiYaml } from '../dist/topic-graph.js';

const path = asyncapiDocumentPath();
const expected = platformAsyncapiYaml();
if (process.argv.includes('--check')) {
  const current = await readFile(path, 'utf8').catch(() => null);
  if (current !== expected) {
    console.error(
      "asyncapi/events.yaml differs from the event schemas and the services' declarations; run the gen:asyncapi script of @msg/suite",
    );
    process.exit(1);
  }
} else {
  await writeFile(path, expected);
  process.stdout.write('generated: packages/contracts/asyncapi/events.yaml\n');
}
