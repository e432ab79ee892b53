import { randomBytes } from 'node:crypto';
import { openTestPool, type TestEnvironment } from '@authz/shared/testing';
import type pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import type { Suite } from './suite.js';
import { useSuite } from './use-suite.js';
import { newDeveloper } from './clients.js';

export interface Developer {
  token: string;
  refreshToken: string;
}

export interface DevelopersContext {
  readonly suite: Suite;
  readonly environment: TestEnvironment;
  /** This file's database, to show what the clients service stored. */
  readonly sql: pg.Pool;
  /** The key the services hash secrets with, so tests can recompute stored hashes. */
  readonly secretHashKey: Buffer;
  /** Two developers: each other's clients must be invisible (interface.md 4.7: 404, never 403). */
  readonly alice: Developer;
  readonly bob: Developer;
}

/**
 * The developer API's per-file fixture: the whole suite, a known SECRET_HASH_KEY, a pool on
 * the file's database and two signed-in developers.
 */
export function useDevelopers(
  gatewayEnv: Record<string, string> = {},
  serviceEnv: Record<string, string> = {},
): DevelopersContext {
  const secretHashKey = randomBytes(32);
  const context = useSuite({
    serviceEnv: { ...serviceEnv, SECRET_HASH_KEY: secretHashKey.toString('hex') },
    gatewayEnv,
  });
  let sql: pg.Pool | undefined;
  let developers: [Developer, Developer] | undefined;

  beforeAll(async () => {
    sql = openTestPool(context.databaseUrl, 2);
    developers = await Promise.all([newDeveloper(context.suite), newDeveloper(context.suite)]);
  });

  afterAll(async () => {
    await sql?.end();
  });

  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useDevelopers(): available once beforeAll has run');
    return value;
  };
  return {
    get suite() {
      return context.suite;
    },
    environment: context.environment,
    get sql() {
      return ready(sql);
    },
    secretHashKey,
    get alice() {
      return ready(developers)[0];
    },
    get bob() {
      return ready(developers)[1];
    },
  };
}
