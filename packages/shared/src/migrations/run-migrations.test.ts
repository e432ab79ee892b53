import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../testing/test-database.js';
import type { TestDatabase } from '../testing/test-database.js';
import { runMigrations } from './run-migrations.js';

const SCHEMA = 'runner';
const dirs: string[] = [];

/** A migrations folder holding `migrations` (name → SQL). */
async function migrationsDir(migrations: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'migrations-'));
  dirs.push(dir);
  for (const [name, sql] of Object.entries(migrations)) {
    await mkdir(join(dir, name));
    await writeFile(join(dir, name, 'migration.sql'), sql);
  }
  return dir;
}

const INIT = {
  '20260101000000_init': 'CREATE TABLE "runner"."users" (id int PRIMARY KEY);',
  '20260102000000_email': 'ALTER TABLE "runner"."users" ADD COLUMN email text;',
};

async function query<T extends object>(url: string, sql: string): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

describe('runMigrations', () => {
  let db: TestDatabase;
  beforeEach(async () => {
    db = await createTestDatabase({ empty: true });
  });
  afterEach(() => db.drop());
  afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));
  const run = (migrationsDir: string) =>
    runMigrations({ connectionString: db.url, schema: SCHEMA, migrationsDir });

  it('applies every migration in folder order, once', async () => {
    const dir = await migrationsDir(INIT);
    expect(await run(dir)).toEqual({ applied: Object.keys(INIT) });
    expect(await run(dir)).toEqual({ applied: [] });
    const rows = await query<{ migration_name: string; applied_steps_count: number }>(
      db.url,
      'SELECT migration_name, applied_steps_count FROM runner._prisma_migrations WHERE finished_at IS NOT NULL ORDER BY migration_name',
    );
    expect(rows).toEqual(
      Object.keys(INIT).map((migration_name) => ({ migration_name, applied_steps_count: 1 })),
    );
    expect(await query(db.url, 'SELECT id, email FROM runner.users')).toEqual([]);
  });

  it('lets exactly one of three simultaneous runners apply', async () => {
    const dir = await migrationsDir(INIT);
    const results = await Promise.all([run(dir), run(dir), run(dir)]);
    const counts = results.map((result) => result.applied.length).sort();
    expect(counts).toEqual([0, 0, Object.keys(INIT).length]);
  });

  it('leaves nothing behind when a migration fails, and says which', async () => {
    const dir = await migrationsDir({
      ...INIT,
      '20260103000000_broken': 'CREATE TABLE "runner"."audit" (id int); SELECT 1 / 0;',
    });
    await expect(run(dir)).rejects.toThrow(/20260103000000_broken failed .*division by zero/);
    const names = await query<{ migration_name: string }>(
      db.url,
      'SELECT migration_name FROM runner._prisma_migrations',
    );
    expect(names.map((row) => row.migration_name).sort()).toEqual(Object.keys(INIT));
    expect(await query(db.url, "SELECT to_regclass('runner.audit') AS audit")).toEqual([{ audit: null }]);
  });

  it('refuses to go on past a migration that started but never finished', async () => {
    const dir = await migrationsDir(INIT);
    await run(await migrationsDir({}));
    await query(
      db.url,
      `INSERT INTO runner._prisma_migrations (id, checksum, migration_name) VALUES ('x', 'x', '20251231000000_crashed')`,
    );
    await expect(run(dir)).rejects.toThrow(/20251231000000_crashed .*never finished/);
  });

  it('records the SHA-256 hex of migration.sql as the checksum', async () => {
    const dir = await migrationsDir(INIT);
    await run(dir);
    const [row] = await query<{ checksum: string }>(
      db.url,
      "SELECT checksum FROM runner._prisma_migrations WHERE migration_name = '20260101000000_init'",
    );
    const file = await readFile(join(dir, '20260101000000_init', 'migration.sql'));
    expect(row?.checksum).toBe(createHash('sha256').update(file).digest('hex'));
    expect(row?.checksum).toMatch(/^[0-9a-f]{64}$/);
  });
});
