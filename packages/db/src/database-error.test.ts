import { describe, expect, it } from 'vitest';
import { classifyDatabaseError } from './database-error.js';

/** A pg DatabaseError's fields (pg always sets severity beside the SQLSTATE). */
const pgError = (code: string) => Object.assign(new Error('x'), { code, severity: 'ERROR' });

describe('classifyDatabaseError', () => {
  it.each([
    ['23505', 'unique'],
    ['23P01', 'unique'],
    ['40001', 'serialization'],
    ['40P01', 'serialization'],
    ['08006', 'unavailable'],
    ['08001', 'unavailable'],
    ['57P01', 'unavailable'],
    ['57P02', 'unavailable'],
    ['57P03', 'unavailable'],
    ['53300', 'unavailable'],
    ['55P03', 'unavailable'],
    ['25006', 'unavailable'],
  ])('when pg fails with SQLSTATE %s, then it is %s', (code, kind) => {
    expect(classifyDatabaseError(pgError(code))).toMatchObject({ kind, sqlState: code });
  });

  it.each(['42P01', '22P02', '23502'])(
    'when pg fails with SQLSTATE %s (a bug or bad input), then it is not classified',
    (code) => {
      expect(classifyDatabaseError(pgError(code))).toBeUndefined();
    },
  );

  it.each(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT'])(
    'when the socket fails with %s, then it is unavailable',
    (code) => {
      const err = Object.assign(new Error(code), { code, syscall: 'connect' });
      expect(classifyDatabaseError(err)).toEqual({ kind: 'unavailable', sqlState: code });
    },
  );

  it('when an error only looks like a code (no severity, no syscall), then it is not classified', () => {
    expect(classifyDatabaseError(Object.assign(new Error('x'), { code: '23505' }))).toBeUndefined();
    expect(classifyDatabaseError(new Error('x'))).toBeUndefined();
    expect(classifyDatabaseError('23505')).toBeUndefined();
  });

  it('when Prisma wraps a raw query failure (P2010), then the SQLSTATE of its adapter error decides', () => {
    const raw = (originalCode: string) =>
      Object.assign(new Error('Raw query failed'), {
        code: 'P2010',
        meta: {
          driverAdapterError: Object.assign(new Error('adapter'), {
            name: 'DriverAdapterError',
            cause: { kind: 'postgres', originalCode },
          }),
        },
      });
    expect(classifyDatabaseError(raw('40001'))).toEqual({
      kind: 'serialization',
      sqlState: '40001',
      prismaCode: 'P2010',
    });
    expect(classifyDatabaseError(raw('42601'))).toBeUndefined();
  });
});
