/** Base of every error `migrate` throws on purpose; the message says what to do. */
export class MigrationError extends Error {
  override name = 'MigrationError';
}

export class MigrationsDirectoryError extends MigrationError {
  override name = 'MigrationsDirectoryError';
}

/** An applied migration's file changed afterwards, so the database no longer matches the files. */
export class MigrationChecksumError extends MigrationError {
  override name = 'MigrationChecksumError';

  constructor(
    readonly schema: string,
    readonly migrations: string[],
  ) {
    super(
      `migration${migrations.length > 1 ? 's' : ''} ${migrations.join(', ')} in schema "${schema}" ` +
        'changed after being applied (checksum differs from _prisma_migrations). An applied ' +
        'migration must never be edited: restore the original file and put the change in a new ' +
        'migration.',
    );
  }
}

/** A migration attempt (ours or `prisma migrate deploy`'s) failed earlier and was never resolved. */
export class PreviousMigrationFailedError extends MigrationError {
  override name = 'PreviousMigrationFailedError';

  constructor(
    readonly schema: string,
    readonly migration: string,
    readonly attemptId: string,
    readonly logs: string | null,
  ) {
    super(
      `migration ${migration} in schema "${schema}" failed earlier and is unresolved, so no ` +
        'further migrations run. Fix the cause (check whether any of its changes remain), then ' +
        `mark the attempt rolled back — UPDATE "${schema}"."_prisma_migrations" SET ` +
        `rolled_back_at = now() WHERE id = '${attemptId}' (or \`prisma migrate resolve ` +
        `--rolled-back ${migration}\`) — and start again.` +
        (logs ? `\nIt failed with: ${logs}` : ''),
    );
  }
}

/** Applying a migration failed now; its transaction was rolled back and the failure recorded. */
export class MigrationFailedError extends MigrationError {
  override name = 'MigrationFailedError';

  constructor(
    readonly schema: string,
    readonly migration: string,
    /** The failed attempt's _prisma_migrations id; null when it could not be recorded. */
    readonly attemptId: string | null,
    cause: unknown,
  ) {
    super(
      `migration ${migration} in schema "${schema}" failed: ${describeDatabaseError(cause)}. Its ` +
        'transaction was rolled back, so none of it remains. ' +
        (attemptId
          ? `The failed attempt is recorded (_prisma_migrations id ${attemptId}) and blocks ` +
            'further runs until marked rolled back.'
          : 'The connection was lost, so the attempt could not be recorded.'),
      { cause },
    );
  }
}

export class MigrationLockTimeoutError extends MigrationError {
  override name = 'MigrationLockTimeoutError';

  constructor(timeoutMs: number) {
    super(
      `timed out after ${timeoutMs} ms waiting for the migration lock (pg_advisory_lock 72707369); ` +
        'another process is migrating this database, or holds the lock on a stuck connection ' +
        '(see pg_locks where locktype = advisory).',
    );
  }
}

/** The text recorded in _prisma_migrations.logs and shown in errors. */
export function describeDatabaseError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = 'code' in err && typeof err.code === 'string' ? ` (SQLSTATE ${err.code})` : '';
  const position =
    'position' in err && typeof err.position === 'string' ? ` at character ${err.position}` : '';
  return `${err.message}${code}${position}`;
}
