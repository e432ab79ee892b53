import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { planTestBackends, startTestBackends, TEST_DEFAULTS } from './test-backends.js';

describe('the backends of pnpm test', () => {
  it('uses a URL from the environment as given, and probes the defaults only when unset', async () => {
    const probed: string[] = [];
    const nothingAnswers = async (host: string, port: number) => (probed.push(`${host}:${port}`), false);
    expect(
      await planTestBackends(
        { DATABASE_URL: 'postgresql://db.internal/x', REDIS_URL: 'redis://cache.internal' },
        nothingAnswers,
      ),
    ).toEqual({ postgres: false, redis: false });
    expect(probed).toEqual([]);

    expect(await planTestBackends({}, nothingAnswers)).toEqual({ postgres: true, redis: true });
    expect(probed).toEqual([
      `${TEST_DEFAULTS.database.host}:${TEST_DEFAULTS.database.port}`,
      `${TEST_DEFAULTS.redis.host}:${TEST_DEFAULTS.redis.port}`,
    ]);
    expect(await planTestBackends({ REDIS_URL: 'redis://cache.internal' }, async () => true)).toEqual({
      postgres: false,
      redis: false,
    });
  });

  describe('on a machine with neither running', () => {
    let dir: string | undefined;
    afterAll(async () => {
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('starts embedded ones that the tests can use (a superuser that creates databases), then stops them', async () => {
      dir = await mkdtemp(join(tmpdir(), 'authz-test-backends-'));
      const lines: string[] = [];
      const backends = await startTestBackends(
        join(dir, 'test'),
        { postgres: true, redis: true },
        (source, line) => lines.push(`${source} | ${line}`),
      );
      try {
        expect(Object.keys(backends.env).sort()).toEqual(['DATABASE_URL', 'REDIS_URL']);
        const client = new pg.Client({ connectionString: backends.env.DATABASE_URL });
        await client.connect();
        try {
          // @authz/shared/testing clones a template database per test file.
          await client.query('CREATE DATABASE probe_clone');
          const { rows } = await client.query<{ datname: string }>(
            "SELECT datname FROM pg_database WHERE datname = 'probe_clone'",
          );
          expect(rows).toEqual([{ datname: 'probe_clone' }]);
        } finally {
          await client.end();
        }
        const redis = new Redis(backends.env.REDIS_URL!, { lazyConnect: true, maxRetriesPerRequest: 1 });
        await redis.connect();
        expect(await redis.ping()).toBe('PONG');
        redis.disconnect();
        expect(lines.filter((line) => line.startsWith('test | '))).toEqual([
          expect.stringMatching(
            /^test \| no PostgreSQL at 127\.0\.0\.1:5432 and no DATABASE_URL: using an embedded one on port \d+$/,
          ),
          expect.stringMatching(
            /^test \| no Redis at 127\.0\.0\.1:6379 and no REDIS_URL: using an embedded one on port \d+$/,
          ),
        ]);
      } finally {
        await backends.stop();
      }
      const client = new pg.Client({
        connectionString: backends.env.DATABASE_URL,
        connectionTimeoutMillis: 1000,
      });
      await expect(client.connect()).rejects.toThrow();
    });
  });
});
