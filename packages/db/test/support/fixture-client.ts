import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const packageDir = fileURLToPath(new URL('../..', import.meta.url));
const clientModule = new URL('../fixture/src/generated/prisma/client.ts', import.meta.url);

/** The migrations of the fixture schema (Postgres schema "db_fixture"). */
export const fixtureMigrationsDir = fileURLToPath(
  new URL('../fixture/prisma/migrations', import.meta.url),
);

/**
 * The fixture's generated Prisma client module. `pnpm gen` generates it; a fresh checkout that
 * skipped that gets it generated here (offline, same wrapper the services use).
 */
export async function loadFixtureClient(): Promise<
  typeof import('../fixture/src/generated/prisma/client.js')
> {
  if (!existsSync(fileURLToPath(clientModule))) {
    execFileSync(
      process.execPath,
      ['bin/prisma-generate.mjs', '--config', 'test/fixture/prisma.config.ts'],
      { cwd: packageDir, stdio: 'inherit' },
    );
  }
  return import('../fixture/src/generated/prisma/client.js');
}
