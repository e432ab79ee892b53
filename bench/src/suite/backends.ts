import { Redis } from 'ioredis';
import pg from 'pg';

/**
 * The suite's own database on the shared server, as the test harness does (docs/conventions.md
 * #11), named after the run's port base: two runs on different BENCH_PORT_BASE never drop each
 * other's database, and two on the same base could not run together anyway (their ports clash).
 */
export function benchDatabaseName(portBase: number): string {
  return `authz_bench_${portBase}`;
}

export interface BenchDatabase {
  url: string;
  drop(): Promise<void>;
}

/** Drops what an interrupted earlier run left, then creates an empty database for the migrations. */
export async function createBenchDatabase(adminUrl: string, portBase: number): Promise<BenchDatabase> {
  const name = benchDatabaseName(portBase);
  await withAdmin(adminUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name}`);
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withAdmin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)),
  };
}

async function withAdmin(adminUrl: string, work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

/** Deletes every key under `prefix` (rate limits are off, but caches, deny-list and queues remain). */
export async function deleteRedisKeys(redisUrl: string, prefix: string): Promise<number> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  let deleted = 0;
  try {
    for await (const keys of redis.scanStream({ match: `${prefix}*`, count: 500 }) as AsyncIterable<
      string[]
    >) {
      if (keys.length > 0) deleted += await redis.unlink(...keys);
    }
  } finally {
    redis.disconnect();
  }
  return deleted;
}
