import { useTestEnvironment } from '@authz/shared/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TcpProxy } from '../support/tcp-proxy.js';
import { startSuite, type Suite } from '../support/suite.js';

// docs/decisions.md #23: each data-owning service reports its own database over gRPC.
const environment = useTestEnvironment();
let proxy: TcpProxy;
let suite: Suite;

beforeAll(async () => {
  const database = new URL(environment.databaseUrl);
  proxy = await TcpProxy.start(database.hostname, Number(database.port || 5432));
  database.hostname = '127.0.0.1';
  database.port = String(proxy.port);
  suite = await startSuite({
    databaseUrl: database.toString(),
    redisUrl: environment.redisUrl,
    redisKeyPrefix: environment.redisPrefix,
  });
});

afterAll(async () => {
  await suite?.close();
  await proxy?.close();
});

const health = async () => {
  const response = await fetch(`${suite.baseUrl}/health`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

it('reports database disconnected with 503 while Postgres is unreachable and recovers', async () => {
  // Healthy first (polled: a cold start on a loaded machine may miss the 1 s deadline once).
  await expect.poll(async () => (await health()).status, { timeout: 15_000, interval: 250 }).toBe(200);

  proxy.cut();
  const down = await health();
  expect(down).toEqual({
    status: 503,
    body: {
      status: 'unhealthy',
      timestamp: expect.any(String),
      services: { database: 'disconnected', cache: 'connected' },
    },
  });

  proxy.restore();
  await expect.poll(async () => (await health()).status, { timeout: 15_000, interval: 250 }).toBe(200);
});
