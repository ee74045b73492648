import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { servicesDir, servicesWithSchema } from './support/services.js';

const tool = fileURLToPath(new URL('../bin/prisma-migration.mjs', import.meta.url));
const run = promisify(execFile);

// `prisma-migration.mjs check` applies the services' migrations to one embedded database and the
// from-empty diffs of their schema.prisma files to another, and compares the two catalogs. It
// needs Prisma 6.19's CLI, fetched once from the npm registry into the temp folder (README, "How
// to add a migration"), and @msg/db built (turbo's test task depends on build).
describe('schema.prisma and migrations of every service', () => {
  const services = servicesWithSchema();

  it(`when the migrations of ${services.join(', ')} are applied, then they produce exactly their schema.prisma`, async () => {
    expect(services.length).toBeGreaterThanOrEqual(6);
    const { stderr } = await run(process.execPath, [tool, 'check', ...services], {
      cwd: servicesDir,
      timeout: 230_000,
    }).catch((err: { stderr?: string; message: string }) => {
      throw new Error(err.stderr ?? err.message);
    });
    expect(stderr).toContain('migrations match');
  }, 240_000);
});
