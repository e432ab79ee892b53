import { describe, expect, it } from 'vitest';
import { ServiceUnavailableError } from './api-errors.js';
import { isDatabaseUnreachable } from './database-unreachable.js';
import { normalizeError } from './wire.js';

/** The shapes pg, pg-pool and Prisma 7's pg adapter raise (recorded against a cut connection). */
const socketError = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
  code: 'ECONNREFUSED',
  syscall: 'connect',
  errno: -111,
});
const adapterCause = { kind: 'DatabaseNotReachable', host: '127.0.0.1', port: 5432 };
const prismaUnreachable = Object.assign(new Error("Can't reach database server at 127.0.0.1:5432"), {
  code: 'P1001',
  meta: { driverAdapterError: { name: 'DriverAdapterError', cause: adapterCause } },
});
const prismaRawQuery = Object.assign(new Error('Raw query failed. Code: `N/A`.'), {
  code: 'P2010',
  meta: { driverAdapterError: { name: 'DriverAdapterError', cause: adapterCause } },
});
const prismaMissingTable = Object.assign(new Error('Raw query failed. Code: `42P01`.'), {
  code: 'P2010',
  meta: {
    driverAdapterError: {
      name: 'DriverAdapterError',
      cause: { originalCode: '42P01', kind: 'TableDoesNotExist' },
    },
  },
});

describe('isDatabaseUnreachable', () => {
  it.each([
    ['a refused connection', socketError],
    ['both addresses of localhost refused', new AggregateError([socketError, socketError])],
    ['a connection cut mid-query (pg-pool)', new Error('Connection terminated unexpectedly')],
    ['a connect timeout (pg-pool)', new Error('timeout exceeded when trying to connect')],
    [
      'a server shutting down (SQLSTATE 57P01)',
      Object.assign(new Error('terminating connection'), { code: '57P01' }),
    ],
    [
      'a server starting up (SQLSTATE 57P03)',
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
    ],
    [
      'a connection exception (SQLSTATE class 08)',
      Object.assign(new Error('connection failure'), { code: '08006' }),
    ],
    ['Prisma P1001', prismaUnreachable],
    ['a raw query whose adapter could not connect', prismaRawQuery],
    ['a wrapped cause', new Error('while saving', { cause: socketError })],
  ])('recognises %s', (_, error) => {
    expect(isDatabaseUnreachable(error)).toBe(true);
  });

  it.each([
    ['a missing table', prismaMissingTable],
    ['a unique violation', Object.assign(new Error('duplicate key'), { code: '23505' })],
    ['Prisma P2002', Object.assign(new Error('Unique constraint failed'), { code: 'P2002' })],
    ['a plain bug', new TypeError('x is undefined')],
    ['not an error', 'ECONNREFUSED'],
  ])('leaves %s alone', (_, error) => {
    expect(isDatabaseUnreachable(error)).toBe(false);
  });

  it('makes normalizeError answer 503 for an outage and 500 for anything else', () => {
    expect(normalizeError(prismaUnreachable)).toBeInstanceOf(ServiceUnavailableError);
    expect(normalizeError(prismaMissingTable).statusCode).toBe(500);
  });
});
