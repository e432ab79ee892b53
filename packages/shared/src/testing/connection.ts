import { Client } from 'pg';

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
