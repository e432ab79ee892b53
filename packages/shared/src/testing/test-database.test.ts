import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withAdminClient } from './connection.js';
import { TEST_DATABASE_PREFIX, createTestDatabase, sweepTestDatabases } from './test-database.js';
import type { TestDatabase } from './test-database.js';
import { findDataApps } from './workspace.js';

async function query<T extends object>(url: string, sql: string): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

describe('createTestDatabase', () => {
  const databases: TestDatabase[] = [];
  beforeAll(async () => {
    // Created at once, as parallel test files do.
    databases.push(
      ...(await Promise.all([createTestDatabase(), createTestDatabase(), createTestDatabase()])),
    );
  });
  afterAll(() => Promise.all(databases.map((database) => database.drop())));

  it('gives every clone a name and URL of its own', () => {
    expect(new Set(databases.map((database) => database.name)).size).toBe(3);
    expect(new URL(databases[0]!.url).pathname).toBe(`/${databases[0]!.name}`);
  });

  it('holds every data app schema with its applied migrations', async () => {
    for (const { schema, app } of await findDataApps()) {
      const rows = await query<{ migration_name: string }>(
        databases[0]!.url,
        `SELECT migration_name FROM "${schema}"._prisma_migrations WHERE finished_at IS NOT NULL`,
      );
      expect(rows.length, `${app} (${schema})`).toBeGreaterThan(0);
    }
  });

  it('keeps clones independent', async () => {
    const [first, second] = databases as [TestDatabase, TestDatabase];
    await query(first.url, 'CREATE TABLE public.only_here (id int)');
    expect(await query(first.url, "SELECT to_regclass('public.only_here')::text AS t")).toEqual([
      { t: 'only_here' },
    ]);
    expect(await query(second.url, "SELECT to_regclass('public.only_here')::text AS t")).toEqual([
      { t: null },
    ]);
  });

  it('drops the database, even with connections open', async () => {
    const database = await createTestDatabase();
    const client = new Client({ connectionString: database.url });
    client.on('error', () => undefined); // the drop terminates it
    await client.connect();
    await database.drop();
    const rows = await query(
      databases[0]!.url,
      `SELECT 1 FROM pg_database WHERE datname = '${database.name}'`,
    );
    expect(rows).toEqual([]);
  });

  it('sweeps test databases left behind for more than an hour', async () => {
    const twoHoursAgo = Math.floor(Date.now() / 1000 - 7200).toString(36);
    const leftover = `${TEST_DATABASE_PREFIX}${twoHoursAgo}_leftover`;
    await withAdminClient((admin) => admin.query(`CREATE DATABASE "${leftover}"`));
    const swept = await sweepTestDatabases();
    expect(swept).toContain(leftover);
    expect(swept).not.toContain(databases[0]!.name);
  });
});
