import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { letOthersTraverse } from './backends.js';
import { startEmbeddedPostgres } from './embedded-postgres.js';
import { startEmbeddedRedis } from './embedded-redis.js';
import type { LineSink } from './log.js';
import { canConnect, freePort } from './ports.js';
import { loadSecrets } from './secrets.js';

/** Where the tests look when DATABASE_URL / REDIS_URL are unset (@authz/shared/testing). */
export const TEST_DEFAULTS = {
  database: { host: '127.0.0.1', port: 5432 },
  redis: { host: '127.0.0.1', port: 6379 },
};

export interface TestBackendPlan {
  postgres: boolean;
  redis: boolean;
}

/**
 * `pnpm test` needs a PostgreSQL and a Redis. A URL in the environment is always used as given
 * (an unreachable one fails the tests, loudly); only when a variable is unset and nothing
 * answers at the test default does the run bring up the embedded server `pnpm start` uses.
 */
export async function planTestBackends(
  env: NodeJS.ProcessEnv,
  reachable: (host: string, port: number) => Promise<boolean> = (host, port) => canConnect(port, host),
): Promise<TestBackendPlan> {
  const [postgresUp, redisUp] = await Promise.all([
    env.DATABASE_URL ? true : reachable(TEST_DEFAULTS.database.host, TEST_DEFAULTS.database.port),
    env.REDIS_URL ? true : reachable(TEST_DEFAULTS.redis.host, TEST_DEFAULTS.redis.port),
  ]);
  return { postgres: !postgresUp, redis: !redisUp };
}

export interface TestBackends {
  /** DATABASE_URL / REDIS_URL for the test processes (only the ones started here). */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * Starts what the plan asks for under `dataDir` (kept between runs, so the cluster is created
 * once), on free ports so a running `pnpm start` is never in the way.
 */
export async function startTestBackends(
  dataDir: string,
  plan: TestBackendPlan,
  sink: LineSink,
): Promise<TestBackends> {
  await mkdir(dataDir, { recursive: true });
  // As root the server runs as `postgres`, which must pass through .data/ and .data/test/.
  if (plan.postgres && process.getuid?.() === 0) {
    await letOthersTraverse(dirname(dataDir));
    await letOthersTraverse(dataDir);
  }
  const secrets = await loadSecrets(join(dataDir, 'secrets.json'), {});
  const env: Record<string, string> = {};
  const stops: (() => Promise<unknown>)[] = [];
  const stop = async () => {
    await Promise.allSettled(stops.map((stopOne) => stopOne()));
  };
  try {
    if (plan.postgres) {
      const server = await startEmbeddedPostgres({
        dataDir: join(dataDir, 'postgres'),
        socketDir: join(dataDir, 'postgres-socket'),
        port: await freePort(),
        password: secrets.values.EMBEDDED_POSTGRES_PASSWORD,
        database: 'authz_test',
        sink,
      });
      stops.push(() => server.stop());
      env.DATABASE_URL = server.url;
      sink(
        'test',
        `no PostgreSQL at 127.0.0.1:5432 and no DATABASE_URL: using an embedded one on port ${server.port}`,
      );
    }
    if (plan.redis) {
      const server = await startEmbeddedRedis({
        dir: join(dataDir, 'redis'),
        port: await freePort(),
        password: secrets.values.EMBEDDED_REDIS_PASSWORD,
        sink,
      });
      stops.push(() => server.stop());
      env.REDIS_URL = server.url;
      sink(
        'test',
        `no Redis at 127.0.0.1:6379 and no REDIS_URL: using an embedded one on port ${server.port}`,
      );
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { env, stop };
}
