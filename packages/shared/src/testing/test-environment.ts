import { afterAll, beforeAll } from 'vitest';
import { testRedisUrl } from './connection.js';
import { cleanupRedisPrefix, createRedisTestPrefix } from './redis-prefix.js';
import { createTestDatabase } from './test-database.js';
import type { TestDatabase } from './test-database.js';

export interface TestEnvironment {
  /** Valid inside tests and hooks (after this file's beforeAll). */
  readonly databaseUrl: string;
  readonly databaseName: string;
  readonly redisUrl: string;
  readonly redisPrefix: string;
}

// Cloning is fast, but the first clone may have to build the template.
const SETUP_TIMEOUT_MS = 60_000;

/** Call once at the top of a test file: its own database and Redis prefix, removed afterwards. */
export function useTestEnvironment(): TestEnvironment {
  const redisUrl = testRedisUrl();
  const redisPrefix = createRedisTestPrefix();
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
  }, SETUP_TIMEOUT_MS);
  afterAll(async () => {
    await database?.drop();
    await cleanupRedisPrefix(redisUrl, redisPrefix);
  }, SETUP_TIMEOUT_MS);
  const ready = (): TestDatabase => {
    if (!database) throw new Error('useTestEnvironment(): the database exists only once beforeAll has run');
    return database;
  };
  return {
    get databaseUrl() {
      return ready().url;
    },
    get databaseName() {
      return ready().name;
    },
    get redisUrl() {
      return redisUrl;
    },
    get redisPrefix() {
      return redisPrefix;
    },
  };
}
