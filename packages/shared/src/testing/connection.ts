import { Client, Pool } from 'pg';

export const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

/** The server tests create their databases on; the database it names is never changed. */
export function baseDatabaseUrl(): string {
  return process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
}

export function testRedisUrl(): string {
  return process.env.REDIS_URL || DEFAULT_REDIS_URL;
}

/** The base URL with its database swapped for `name`. */
export function databaseUrl(name: string): string {
  const url = new URL(baseDatabaseUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs `work` on a connection to the base database, where CREATE/DROP DATABASE are issued. */
export async function withAdminClient<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: baseDatabaseUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** SQLSTATE 57P01 admin_shutdown: "terminating connection due to administrator command". */
const ADMIN_SHUTDOWN = '57P01';

/**
 * A pool on a test database, for a test's own queries. pg-pool's `end()` resolves once it has
 * asked its connections to close, not once they have: the test database can then be dropped
 * WITH (FORCE) while one is still closing, and the server ends that one with admin_shutdown,
 * which the pool re-emits on itself, an uncaught exception failing the whole run without a
 * listener. That error is expected at the end of a test file; any other still surfaces.
 */
export function openTestPool(connectionString: string, max = 2): Pool {
  const pool = new Pool({ connectionString, max });
  pool.on('error', (error: Error & { code?: string }) => {
    if (error.code !== ADMIN_SHUTDOWN) throw error;
  });
  return pool;
}
