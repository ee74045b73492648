export {
  type Batcher,
  type BatcherOptions,
  createBatcher,
  createGroupCommit,
} from './batcher.js';
export { type CopyColumn, type CopyRowsOptions, copyRows } from './copy-rows.js';
export {
  classifyDatabaseError,
  type DatabaseErrorInfo,
  type DatabaseErrorKind,
} from './database-error.js';
export {
  type EmbeddedPostgres,
  type EmbeddedPostgresOptions,
  startEmbeddedPostgres,
} from './embedded-postgres.js';
export { quoteSchema } from './identifier.js';
export { type MigrateOptions, migrate } from './migrate/migrate.js';
export {
  MigrationChecksumError,
  MigrationError,
  MigrationFailedError,
  MigrationLockTimeoutError,
  MigrationsDirectoryError,
  PreviousMigrationFailedError,
} from './migrate/migration-errors.js';
export { createPool, type PoolOptions } from './pool.js';
export { createPrismaClient } from './prisma-client.js';
export { type PrismaRawQueries, prismaSql } from './prisma-sql.js';
export { databaseReadiness } from './readiness.js';
export type { Sql } from './sql.js';
export { withTransaction } from './transaction.js';
export { isUuid } from './uuid.js';
