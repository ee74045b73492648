import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { servicesDir, servicesWithSchema } from './support/services.js';

const tool = fileURLToPath(new URL('../bin/prisma-migration.mjs', import.meta.url));
const run = promisify(execFile);

// `prisma-migration.mjs check` applies a service's migrations to one embedded database and the
// from-empty diff of its schema.prisma to another, and compares their catalogs. It needs Prisma
// 6.19's CLI, fetched once from the npm registry into the temp folder (see README), and
// @msg/db built (turbo's test task depends on build).
describe('schema.prisma and migrations of every service', () => {
  it.each(servicesWithSchema())(
    'when the migrations of %s are applied, then they produce exactly its schema.prisma',
    async (service) => {
      const { stderr } = await run(process.execPath, [tool, 'check'], {
        cwd: join(servicesDir, service),
        timeout: 110_000,
      }).catch((err: { stderr?: string; message: string }) => {
        throw new Error(`${service}: ${err.stderr ?? err.message}`);
      });
      expect(stderr).toMatch(/migration\(s\) match/);
    },
  );
});
