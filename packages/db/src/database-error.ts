/**
 * What a failed database call means for the caller, whoever raised it: `pg` (a DatabaseError with
 * its SQLSTATE `code`, or a socket error), Prisma (a known request or initialization error with
 * its P-code) or Prisma's pg driver adapter (a DriverAdapterError whose `cause` has the mapped
 * `kind` and the `originalCode` SQLSTATE). Recognised by shape, so neither library is imported.
 *
 * - `unique`: a unique or exclusion constraint refused the row (23505, 23P01; Prisma P2002).
 * - `serialization`: the transaction lost a race with another one (40001 serialization failure,
 *   40P01 deadlock; Prisma P2034). Running the whole transaction again is the cure.
 * - `unavailable`: the database cannot serve now, whatever the statement: connection exceptions
 *   (08), insufficient resources such as too many connections (53), shutdown or cancel by the
 *   operator or a timeout (57), lock not available (55P03), a read-only standby after a failover
 *   (25006); refused, reset or timed-out sockets; Prisma P1001/P1002/P1008/P1017 (server not
 *   reachable, timed out, connection closed), P2024 (no pooled connection in time), P2028 (the
 *   transaction could not start or expired in time), P2037 (too many connections).
 */
export type DatabaseErrorKind = 'unique' | 'serialization' | 'unavailable';

export interface DatabaseErrorInfo {
  kind: DatabaseErrorKind;
  /** The Postgres SQLSTATE, or the socket errno name (ECONNREFUSED), when known. */
  sqlState?: string;
  /** Prisma's P-code, when Prisma raised it. */
  prismaCode?: string;
  /** The constraint that refused the row (for the log, never for a response body). */
  constraint?: string;
  table?: string;
}

const UNIQUE_SQLSTATES = new Set(['23505', '23P01']);
const SERIALIZATION_SQLSTATES = new Set(['40001', '40P01']);
const UNAVAILABLE_SQLSTATE = /^(08|53|57)...$|^55P03$|^25006$/;
const UNAVAILABLE_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
]);

const PRISMA_KINDS: Readonly<Record<string, DatabaseErrorKind>> = {
  P2002: 'unique',
  P2034: 'serialization',
  P1001: 'unavailable',
  P1002: 'unavailable',
  P1008: 'unavailable',
  P1017: 'unavailable',
  P2024: 'unavailable',
  P2028: 'unavailable',
  P2037: 'unavailable',
};

/** The driver adapter's `cause.kind` for errors it maps itself (no SQLSTATE kept for sockets). */
const ADAPTER_KINDS: Readonly<Record<string, DatabaseErrorKind>> = {
  UniqueConstraintViolation: 'unique',
  TransactionWriteConflict: 'serialization',
  DatabaseNotReachable: 'unavailable',
  ConnectionClosed: 'unavailable',
  SocketTimeout: 'unavailable',
  TooManyConnections: 'unavailable',
};

/**
 * pg raises these without any code when the server goes away mid-query or the pool cannot hand
 * out a connection in time (pg and pg-pool give them no `code`), so their exact text is all there
 * is to recognise them by.
 */
const PG_CODELESS_OUTAGES = new Set([
  'Connection terminated unexpectedly',
  'Connection terminated',
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
]);

type Fields = Record<string, unknown>;

function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function bySqlState(sqlState: string): DatabaseErrorKind | undefined {
  if (UNIQUE_SQLSTATES.has(sqlState)) return 'unique';
  if (SERIALIZATION_SQLSTATES.has(sqlState)) return 'serialization';
  if (UNAVAILABLE_SQLSTATE.test(sqlState) || UNAVAILABLE_ERRNOS.has(sqlState)) return 'unavailable';
  return undefined;
}

/** A pg DatabaseError: a five-character SQLSTATE beside a severity (pg always sets both). */
function fromPg(err: Fields): DatabaseErrorInfo | undefined {
  const code = text(err.code);
  if (code === undefined) {
    return err instanceof Error && PG_CODELESS_OUTAGES.has(err.message)
      ? { kind: 'unavailable' }
      : undefined;
  }
  const isDatabaseError = /^[0-9A-Z]{5}$/.test(code) && typeof err.severity === 'string';
  const isSocketError = UNAVAILABLE_ERRNOS.has(code) && typeof err.syscall === 'string';
  if (!isDatabaseError && !isSocketError) return undefined;
  const kind = bySqlState(code);
  if (kind === undefined) return undefined;
  const constraint = text(err.constraint);
  const table = text(err.table);
  return { kind, sqlState: code, ...(constraint && { constraint }), ...(table && { table }) };
}

/** Prisma's pg adapter error: `{ name: 'DriverAdapterError', cause: { kind, originalCode? } }`. */
function fromDriverAdapter(err: unknown): DatabaseErrorInfo | undefined {
  if (!isFields(err) || err.name !== 'DriverAdapterError' || !isFields(err.cause)) return undefined;
  const cause = err.cause;
  const sqlState = text(cause.originalCode) ?? text(cause.code);
  const kind =
    (sqlState !== undefined ? bySqlState(sqlState) : undefined) ??
    ADAPTER_KINDS[String(cause.kind)];
  if (kind === undefined) return undefined;
  const index = isFields(cause.constraint) ? text(cause.constraint.index) : undefined;
  const table = text(cause.table);
  return {
    kind,
    ...(sqlState && { sqlState }),
    ...(index && { constraint: index }),
    ...(table && { table }),
  };
}

/**
 * A Prisma error: `code` (known request errors) or `errorCode` (initialization errors) is a
 * P-code. Raw queries (P2010) and Postgres errors Prisma has no code for (P2039) keep the
 * adapter's error in `meta.driverAdapterError`, which tells the SQLSTATE.
 */
function fromPrisma(err: Fields): DatabaseErrorInfo | undefined {
  const prismaCode = [err.code, err.errorCode]
    .map(text)
    .find((code) => /^P\d{4}$/.test(code ?? ''));
  if (prismaCode === undefined) return undefined;
  const adapter = isFields(err.meta) ? fromDriverAdapter(err.meta.driverAdapterError) : undefined;
  const kind = adapter?.kind ?? PRISMA_KINDS[prismaCode];
  if (kind === undefined) return undefined;
  return { ...adapter, kind, prismaCode };
}

/** The meaning of a database error, or undefined for anything else (including bugs: 42P01...). */
export function classifyDatabaseError(err: unknown): DatabaseErrorInfo | undefined {
  if (!isFields(err)) return undefined;
  return fromPrisma(err) ?? fromDriverAdapter(err) ?? fromPg(err);
}
