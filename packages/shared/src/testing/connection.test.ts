import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestPool, withAdminClient } from './connection.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

describe('openTestPool', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  it('outlives the server ending an idle connection with admin_shutdown, as a dropped database does', async () => {
    const pool = openTestPool(database.url, 1);
    const { rows } = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const ended = new Promise((resolve) => pool.once('remove', resolve));
    // What DROP DATABASE ... WITH (FORCE) does to the connections still open on it.
    await withAdminClient((admin) => admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]));
    await ended;
    // The pool opens a new connection for the next query: nothing was thrown meanwhile.
    expect((await pool.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    await pool.end();
  });

  it('still throws any other error a connection meets', () => {
    const pool = openTestPool(database.url);
    const other = Object.assign(new Error('connection reset'), { code: 'ECONNRESET' });
    expect(() => pool.emit('error', other)).toThrow(other);
    const shutdown = Object.assign(new Error('terminating connection'), { code: '57P01' });
    expect(() => pool.emit('error', shutdown)).not.toThrow();
    return pool.end();
  });
});
