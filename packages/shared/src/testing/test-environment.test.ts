import { Client } from 'pg';
import { describe, expect, it } from 'vitest';
import { useTestEnvironment } from './test-environment.js';

const env = useTestEnvironment();

describe('useTestEnvironment', () => {
  it('provides a migrated database, a Redis URL and a prefix inside tests', async () => {
    const client = new Client({ connectionString: env.databaseUrl });
    await client.connect();
    const { rows } = await client.query<{ db: string }>('SELECT current_database() AS db');
    await client.end();
    expect(rows).toEqual([{ db: env.databaseName }]);
    expect(env.redisUrl).toMatch(/^redis:/);
    expect(env.redisPrefix).toMatch(/^test:/);
  });
});
