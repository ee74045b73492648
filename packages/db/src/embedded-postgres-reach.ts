import { execFile } from 'node:child_process';
import {
  chmod,
  cp,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rename,
  rm,
  rmdir,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { PostgresBinaries, RunAs } from './embedded-postgres-binaries.js';

const exec = promisify(execFile);

/**
 * Where the server's files go when this process is root and the `postgres` account cannot reach
 * the checkout (a clone in root's home, mode 700, as in many containers): a directory of ours in
 * a place every account can traverse. Its copies of the binaries are root's and read-only to the
 * server; its data directories are the server's.
 */
export const DEFAULT_REACHABLE_DIR = '/var/lib/messaging-platform/embedded-postgres';

/** A copy of the binaries interrupted this long ago is left over from a killed start. */
const STALE_COPY_MS = 3_600_000;

/** Whether the account `runAs` can enter `dir` (every directory on the way searchable). */
async function canEnter(runAs: RunAs, dir: string): Promise<boolean> {
  return exec('sh', ['-c', 'cd -- "$1"', 'sh', dir], runAs).then(
    () => true,
    () => false,
  );
}

/** Whether the account `runAs` can run `postgres` where it is (binary and libraries). */
async function canRun(runAs: RunAs, postgres: string): Promise<boolean> {
  return exec(postgres, ['--version'], runAs).then(
    () => true,
    () => false,
  );
}

/** `dir` and its missing parents, each traversable by every account (root's umask aside). */
async function mkdirOpen(dir: string): Promise<void> {
  const created = await mkdir(dir, { recursive: true });
  if (created === undefined) return;
  for (let path = dir; path.length >= created.length; path = dirname(path)) {
    await chmod(path, 0o755);
  }
}

/**
 * The binaries as `runAs` can run them: where they are, or (as root, when the account cannot
 * reach node_modules) a copy under `reachableDir`, made once per version and shared by every
 * checkout. The copy is made aside and renamed into place, so a half copy is never used; one left
 * by a killed start is removed by a later one.
 */
export async function reachableBinaries(
  binaries: PostgresBinaries,
  runAs: RunAs,
  reachableDir: string,
): Promise<PostgresBinaries> {
  if (!('uid' in runAs) || (await canRun(runAs, binaries.postgres))) return binaries;
  // The package's native/ holds bin/, lib/ and share/; the server finds lib and share from bin.
  const native = dirname(dirname(binaries.postgres));
  const { version } = JSON.parse(await readFile(join(native, '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  const target = join(reachableDir, `postgres-${version}`);
  const inside = (copy: string): PostgresBinaries => ({
    initdb: join(copy, 'bin', 'initdb'),
    postgres: join(copy, 'bin', 'postgres'),
  });
  if (await exists(target)) return inside(target);
  await mkdirOpen(reachableDir);
  await removeStaleCopies(reachableDir);
  const partial = await mkdtemp(join(reachableDir, `.postgres-${version}-`));
  try {
    await cp(native, partial, { recursive: true, verbatimSymlinks: true });
    await chmod(partial, 0o755);
    await rename(partial, target);
  } catch (error) {
    await rm(partial, { recursive: true, force: true });
    // Another start copied the same version meanwhile: use theirs.
    if (!(await exists(target))) throw error;
  }
  return inside(target);
}

async function removeStaleCopies(reachableDir: string): Promise<void> {
  for (const entry of await readdir(reachableDir)) {
    if (!entry.startsWith('.postgres-')) continue;
    const path = join(reachableDir, entry);
    const { mtimeMs } = await stat(path);
    if (Date.now() - mtimeMs > STALE_COPY_MS) await rm(path, { recursive: true, force: true });
  }
}

/**
 * The directory the server keeps `dataDir`'s data in. Usually `dataDir` itself. As root, when
 * the `postgres` account cannot reach it, the data lives in a new directory under
 * `reachableDir/data` and `dataDir` becomes a symbolic link to it, so the data stays where the
 * checkout says (`.data/postgres`), survives restarts, and goes with that link. Data already in
 * an unreachable `dataDir` is never moved: that is an error saying what to do.
 */
export async function reachableDataDir(
  dataDir: string,
  runAs: RunAs,
  reachableDir: string,
): Promise<string> {
  if ((await lstat(dataDir).catch(() => undefined))?.isSymbolicLink()) {
    const target = await realpath(dataDir).catch(() => undefined);
    if (target) return target;
    // What it pointed to was removed: the database starts empty, as after removing .data.
    await rm(dataDir);
  }
  if (!('uid' in runAs)) return dataDir;
  await mkdir(dirname(dataDir), { recursive: true });
  if (await canEnter(runAs, dirname(dataDir))) return dataDir;
  const present = await readdir(dataDir).catch(() => undefined);
  if (present && present.length > 0) {
    throw new Error(
      `embedded Postgres: running as root, the server runs as the postgres account, which cannot reach ${dataDir} (a directory above it is private); move that directory somewhere the account can reach and set EMBEDDED_DATA_DIR to it, or remove it to start with an empty database`,
    );
  }
  if (present) await rmdir(dataDir);
  const data = join(reachableDir, 'data');
  await mkdirOpen(data);
  const target = await mkdtemp(join(data, 'postgres-'));
  // What the directory belongs to, for an operator looking at the place.
  await writeFile(`${target}.origin`, `${dataDir}\n`);
  await symlink(target, dataDir);
  return target;
}

/** A parent for a temporary data directory that `runAs` can reach: $TMPDIR, else ours. */
export async function reachableTemporaryParent(
  runAs: RunAs,
  reachableDir: string,
): Promise<string> {
  if (!('uid' in runAs) || (await canEnter(runAs, tmpdir()))) return tmpdir();
  await mkdirOpen(reachableDir);
  return reachableDir;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
