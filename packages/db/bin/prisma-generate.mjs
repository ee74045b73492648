#!/usr/bin/env node
// `prisma generate` without network: Prisma 7's CLI downloads its native schema engine before
// generating although generation never uses it. Point it at a stub, silence the update check, and
// run the CLI installed in the calling package (its own prisma version), in its directory.
//
//   usage (from a package's "gen" script): node <path>/prisma-generate.mjs [prisma generate args]
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const cwd = process.cwd();

/** The calling package's prisma, else the one @msg/db depends on. */
function prismaCli() {
  for (const from of [join(cwd, 'package.json'), join(here, '..', 'package.json')]) {
    try {
      const pkg = createRequire(from).resolve('prisma/package.json');
      return join(dirname(pkg), 'build', 'index.js');
    } catch {
      // not installed there; try the next place
    }
  }
  console.error('prisma-generate: the prisma CLI is not installed (devDependency "prisma").');
  process.exit(1);
}

const env = {
  ...process.env,
  // An engine set by the caller wins (somewhere the real one exists).
  PRISMA_SCHEMA_ENGINE_BINARY:
    process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? join(here, 'offline-schema-engine.mjs'),
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
  CHECKPOINT_DISABLE: '1',
};

const result = spawnSync(process.execPath, [prismaCli(), 'generate', ...process.argv.slice(2)], {
  cwd,
  env,
  stdio: 'inherit',
});
if (result.error) {
  console.error(`prisma-generate: ${result.error.message}`);
  process.exit(1);
}
process.exit(result.status ?? 1);
