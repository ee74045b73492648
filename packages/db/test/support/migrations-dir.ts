import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A throw-away Prisma-format migrations directory the test can add to and edit. */
export async function tempMigrationsDir() {
  const dir = await mkdtemp(join(tmpdir(), 'msg-db-it-'));
  return {
    dir,
    async write(name: string, sql: string) {
      await mkdir(join(dir, name), { recursive: true });
      await writeFile(join(dir, name, 'migration.sql'), sql);
    },
    async remove() {
      await rm(dir, { recursive: true, force: true });
    },
  };
}
