import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Waits until no earlier server holds `dataDir`, reading the lock file Postgres keeps there
 * (`postmaster.pid`, first line the server's pid).
 *
 * - No file, or its process is gone: nothing to do (Postgres replaces a stale file itself).
 * - Its pid now belongs to another program (pids are reused after a reboot or a container
 *   restart): the file is removed, since Postgres would take that process for a running server
 *   and refuse to start.
 * - A postgres still runs on it: usually the server of a suite that was just killed, shutting
 *   down by itself (the watchdog in embedded-postgres.ts); it is waited for up to `waitMs`, then
 *   this fails naming the pid. Another live suite on the same directory ends up there too.
 */
export async function waitForPreviousServer(dataDir: string, waitMs: number): Promise<void> {
  const pidFile = join(dataDir, 'postmaster.pid');
  const deadline = Date.now() + waitMs;
  for (;;) {
    const pid = await lockPid(pidFile);
    if (pid === undefined) return;
    const holder = await processKind(pid);
    if (holder === 'gone') return;
    if (holder === 'other') {
      await rm(pidFile, { force: true });
      return;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `embedded Postgres: another server (pid ${pid}) is running on ${dataDir}; stop it (kill -INT ${pid}) or use another data directory`,
      );
    }
    await sleep(100);
  }
}

async function lockPid(pidFile: string): Promise<number | undefined> {
  const text = await readFile(pidFile, 'utf8').catch(() => undefined);
  const pid = Number(text?.split('\n')[0]?.trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

async function processKind(pid: number): Promise<'gone' | 'postgres' | 'other'> {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists but belongs to another user (the postgres account when we are not root).
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return 'gone';
  }
  // Where /proc is missing (macOS) the process is taken for a server: waiting is the safe side.
  const name = await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => undefined);
  return name === undefined || name.trim() === 'postgres' ? 'postgres' : 'other';
}
