import { useTestEnvironment } from '@authz/shared/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PrivateRedisServer } from '../support/redis-server.js';
import { startSuite, type Suite } from '../support/suite.js';

// docs/decisions.md #23: Redis is pinged by the gateway; its loss is reported, never fatal.
const environment = useTestEnvironment();
let redis: PrivateRedisServer;
let suite: Suite;

beforeAll(async () => {
  redis = await PrivateRedisServer.start();
  suite = await startSuite({
    databaseUrl: environment.databaseUrl,
    redisUrl: redis.url,
    redisKeyPrefix: environment.redisPrefix,
  });
});

afterAll(async () => {
  await suite?.close();
  await redis?.stop();
});

const health = async () => {
  const response = await fetch(`${suite.baseUrl}/health`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

it('reports cache disconnected with 503 while Redis is down and recovers without a restart', async () => {
  // Healthy first (polled: a cold start on a loaded machine may miss the 1 s deadline once).
  await expect.poll(async () => (await health()).status, { timeout: 15_000, interval: 250 }).toBe(200);

  await redis.stop();
  const down = await health();
  expect(down).toEqual({
    status: 503,
    body: {
      status: 'unhealthy',
      timestamp: expect.any(String),
      services: { database: 'connected', cache: 'disconnected' },
    },
  });

  // Rate limiting fails open: ordinary routes keep answering while Redis is gone.
  const greeting = await fetch(`${suite.baseUrl}/`);
  expect(greeting.status).toBe(200);

  await redis.start();
  await expect.poll(async () => (await health()).status, { timeout: 15_000, interval: 250 }).toBe(200);
  expect((await health()).body).toMatchObject({ services: { database: 'connected', cache: 'connected' } });
});
