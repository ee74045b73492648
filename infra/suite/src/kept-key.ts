import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * A 32-byte key (64 hex characters) kept in `path`, made there on first use (readable by this
 * user only). A key that seals what a persistent database keeps must outlive the process: a new
 * random one at each start would leave the sealed values unopenable.
 */
export async function keptKey(path: string): Promise<string> {
  const existing = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (existing !== undefined) return existing.trim();
  const key = randomBytes(32).toString('hex');
  await mkdir(dirname(path), { recursive: true });
  // 'wx': two suites starting at once on one data directory keep the first one's key.
  await writeFile(path, `${key}\n`, { mode: 0o600, flag: 'wx' }).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    },
  );
  return (await readFile(path, 'utf8')).trim();
}
