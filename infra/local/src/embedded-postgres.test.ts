import { chmod, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedPostgresOptions } from './embedded-postgres.js';
import { freePort, isPortFree } from './ports.js';
import { alive, descendants } from './test/launcher.js';

async function query(url: string, sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

describe('embedded PostgreSQL', () => {
  let dir: string;
  let options: EmbeddedPostgresOptions;
  const lines: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'authz-pg-'));
    // As root the server runs as `postgres`, which must traverse this 0700 folder.
    await chmod(dir, 0o711);
    options = {
      dataDir: join(dir, 'postgres'),
      socketDir: join(dir, 'socket'),
      port: await freePort(),
      password: 'p@ss/word',
      database: 'authz',
      sink: (_, line) => lines.push(line),
    };
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('creates a cluster (as the postgres user when root), creates the database, and stops cleanly', async () => {
    const started = Date.now();
    const server = await startEmbeddedPostgres(options);
    const startMs = Date.now() - started;
    expect(server.created).toBe(true);
    const { rows } = await query(server.url, 'SELECT current_database() AS db, current_user AS role');
    expect(rows[0]).toEqual({ db: 'authz', role: 'authz' });
    if (process.getuid?.() === 0) expect((await stat(options.dataDir)).uid).not.toBe(0);
    const pid = server.process.pid!;
    const backends = descendants(pid);
    expect(backends.length).toBeGreaterThan(0);
    expect(await server.stop()).toEqual({ code: 0, signal: null, forced: false });
    expect([pid, ...backends].filter(alive)).toEqual([]);
    expect(await isPortFree(options.port)).toBe(true);
    // Routine LOG lines are filtered; initdb output only shows on failure.
    expect(lines).toEqual([`creating a PostgreSQL cluster in ${options.dataDir}`]);
    console.info(`embedded PostgreSQL: initdb + first start ${startMs} ms`);
  });

  it('reuses the cluster and its data on the next start', async () => {
    const first = await startEmbeddedPostgres(options);
    await query(first.url, 'CREATE TABLE kept (n int); INSERT INTO kept VALUES (42)');
    await first.stop();
    const started = Date.now();
    const second = await startEmbeddedPostgres(options);
    console.info(`embedded PostgreSQL: restart ${Date.now() - started} ms`);
    expect(second.created).toBe(false);
    expect((await query(second.url, 'SELECT n FROM kept')).rows).toEqual([{ n: 42 }]);
    await second.stop();
  });

  it('refuses a wrong password (scram, not trust)', async () => {
    const server = await startEmbeddedPostgres(options);
    try {
      const url = server.url.replace(encodeURIComponent(options.password), 'wrong');
      await expect(query(url, 'SELECT 1')).rejects.toThrow(/password authentication failed/);
    } finally {
      await server.stop();
    }
  });

  it('explains a cluster of another major version instead of failing obscurely', async () => {
    const other = join(dir, 'old');
    await rm(other, { recursive: true, force: true });
    await mkdir(other);
    await writeFile(join(other, 'PG_VERSION'), '9\n');
    await expect(startEmbeddedPostgres({ ...options, dataDir: other })).rejects.toThrow(
      /holds a PostgreSQL 9 cluster but only PostgreSQL \d+ was found.*DATABASE_URL/,
    );
  });
});
