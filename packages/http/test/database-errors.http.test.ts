import {
  PrismaClientInitializationError,
  PrismaClientKnownRequestError,
} from '@prisma/client/runtime/client';
import pg from 'pg';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createService } from '../src/create-service.js';
import type { ErrorFormat } from '../src/error-format.js';
import { problemErrorFormat } from '../src/problem-format.js';
import { captureLogs } from './support.js';

/** A pg DatabaseError as pg builds it from the server's ErrorResponse. */
function pgError(code: string, message: string, fields: Partial<pg.DatabaseError> = {}) {
  const err = new pg.DatabaseError(message, message.length, 'error');
  return Object.assign(err, { severity: 'ERROR', code, ...fields });
}

/** A Prisma known request error as the client raises it. */
function prismaError(code: string, meta: Record<string, unknown> = {}) {
  return new PrismaClientKnownRequestError(`Invalid prisma.account.create() invocation: ${code}`, {
    code,
    clientVersion: '7.10.0',
    meta,
  });
}

/** Prisma's pg adapter error (@prisma/driver-adapter-utils DriverAdapterError): name + cause. */
function adapterError(cause: Record<string, unknown>) {
  return Object.assign(new Error('driver adapter error'), { name: 'DriverAdapterError', cause });
}

function socketError(code: string) {
  return Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), {
    code,
    errno: -111,
    syscall: 'connect',
    address: '127.0.0.1',
    port: 5432,
  });
}

const UNIQUE = pgError(
  '23505',
  'duplicate key value violates unique constraint "account_name_key_key"',
  {
    constraint: 'account_name_key_key',
    table: 'account',
    detail: 'Key (name_key)=(alice) already exists.',
  },
);

/** What each route throws, as the libraries raise it. */
const THROWN: Record<string, () => unknown> = {
  'pg-unique': () => UNIQUE,
  'pg-exclusion': () =>
    pgError('23P01', 'conflicting key value violates exclusion constraint "no_overlap"'),
  'pg-serialization': () =>
    pgError('40001', 'could not serialize access due to read/write dependencies'),
  'pg-deadlock': () => pgError('40P01', 'deadlock detected'),
  'pg-admin-shutdown': () =>
    pgError('57P01', 'terminating connection due to administrator command'),
  'pg-cannot-connect-now': () => pgError('57P03', 'the database system is starting up'),
  'pg-too-many-connections': () => pgError('53300', 'sorry, too many clients already'),
  'pg-connection-failure': () => pgError('08006', 'connection failure'),
  'pg-refused': () => socketError('ECONNREFUSED'),
  'pg-reset': () => socketError('ECONNRESET'),
  'pg-terminated': () => new Error('Connection terminated unexpectedly'),
  'pg-pool-timeout': () => new Error('timeout exceeded when trying to connect'),
  'prisma-unique': () => prismaError('P2002', { modelName: 'Account', target: ['name_key'] }),
  'prisma-raw-unique': () =>
    prismaError('P2010', {
      driverAdapterError: adapterError({ kind: 'postgres', originalCode: '23505' }),
    }),
  'prisma-write-conflict': () => prismaError('P2034'),
  'prisma-unreachable': () => prismaError('P1001'),
  'prisma-closed': () => prismaError('P1017'),
  'prisma-pool-timeout': () => prismaError('P2024'),
  'prisma-too-many-connections': () => prismaError('P2037'),
  'prisma-init-unreachable': () =>
    new PrismaClientInitializationError("Can't reach database server", '7.10.0', 'P1001'),
  'adapter-closed': () => adapterError({ kind: 'ConnectionClosed' }),
  'adapter-unique': () =>
    adapterError({
      kind: 'UniqueConstraintViolation',
      constraint: { index: 'account_name_key_key' },
      originalCode: '23505',
    }),
  'pg-bug': () => pgError('42P01', 'relation "account" does not exist'),
  'prisma-bug': () => prismaError('P2021'),
};

function service(errorFormat?: ErrorFormat) {
  const logs = captureLogs();
  const app = createService({
    name: 'accounts',
    logger: logs.logger,
    ...(errorFormat && { errorFormat }),
    routes(app) {
      app.post('/v1/things/:kind', async (req) => {
        const make = THROWN[req.params.kind];
        throw make ? make() : new Error('unknown kind');
      });
    },
  });
  return { app, logs };
}

describe('database errors in the shared error middleware', () => {
  const { app, logs } = service();

  it.each(['pg-unique', 'pg-exclusion', 'prisma-unique', 'prisma-raw-unique', 'adapter-unique'])(
    'when %s is thrown, then 409 CONFLICT saying a unique value is taken',
    async (kind) => {
      const res = await request(app).post(`/v1/things/${kind}`);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        code: 'CONFLICT',
        message: 'A resource with the same unique value already exists',
      });
    },
  );

  it.each(['pg-serialization', 'pg-deadlock', 'prisma-write-conflict'])(
    'when %s reaches the middleware unretried, then 409 CONFLICT asking to retry',
    async (kind) => {
      const res = await request(app).post(`/v1/things/${kind}`);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        code: 'CONFLICT',
        message: 'The request conflicted with a concurrent change; retry it',
      });
    },
  );

  it.each([
    'pg-admin-shutdown',
    'pg-cannot-connect-now',
    'pg-too-many-connections',
    'pg-connection-failure',
    'pg-refused',
    'pg-reset',
    'pg-terminated',
    'pg-pool-timeout',
    'prisma-unreachable',
    'prisma-closed',
    'prisma-pool-timeout',
    'prisma-too-many-connections',
    'prisma-init-unreachable',
    'adapter-closed',
  ])('when %s is thrown, then 503 SERVICE_UNAVAILABLE with Retry-After', async (kind) => {
    const res = await request(app).post(`/v1/things/${kind}`);
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      message: 'Storage is temporarily unavailable; retry later',
    });
  });

  it.each(['pg-bug', 'prisma-bug'])(
    'when %s (a bug, not a race or an outage) is thrown, then it stays a 500 with an error id',
    async (kind) => {
      const res = await request(app).post(`/v1/things/${kind}`);
      expect(res.status).toBe(500);
      expect(res.body.code).toBe('INTERNAL_ERROR');
    },
  );

  it('when a unique violation is answered, then the body has no SQL or constraint and the log has them', async () => {
    const res = await request(app).post('/v1/things/pg-unique');
    expect(res.text).not.toMatch(/account_name_key_key|duplicate key|alice|23505|name_key/);
    const logged = logs.lines.find(
      (line) => line.message === 'request rejected' && line.status === 409,
    );
    expect(logged).toMatchObject({
      level: 'info',
      code: 'CONFLICT',
      database: { kind: 'unique', sqlState: '23505', constraint: 'account_name_key_key' },
    });
    expect(JSON.stringify(logged)).not.toContain('alice');
  });

  it('when an outage is answered, then the log line is a warning with the SQLSTATE', async () => {
    await request(app).post('/v1/things/pg-admin-shutdown');
    expect(
      logs.lines.find((line) => line.message === 'request failed' && line.status === 503),
    ).toMatchObject({ level: 'warn', database: { kind: 'unavailable', sqlState: '57P01' } });
  });
});

describe('database errors in an interface with its own error format', () => {
  const { app } = service(problemErrorFormat('https://example.test/problems'));

  it('when the loser of a unique race is answered, then it is a 409 problem document', async () => {
    const res = await request(app).post('/v1/things/prisma-unique');
    expect(res.status).toBe(409);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({
      type: 'https://example.test/problems/conflict',
      status: 409,
      detail: 'A resource with the same unique value already exists',
    });
  });

  it('when the database is down, then it is a 503 problem document with Retry-After', async () => {
    const res = await request(app).post('/v1/things/pg-refused');
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toMatchObject({
      type: 'https://example.test/problems/service-unavailable',
      status: 503,
    });
    expect(res.text).not.toMatch(/ECONNREFUSED|5432/);
  });
});
