import { useTestEnvironment } from '@authz/shared/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSuite, type Suite } from '../support/suite.js';
import { call, newDeveloper } from '../support/clients.js';

// interface.md 8: POST /api/clients/ and regenerate-secret share one per-IP budget.
const environment = useTestEnvironment();
let suite: Suite;

beforeAll(async () => {
  suite = await startSuite({
    databaseUrl: environment.databaseUrl,
    redisUrl: environment.redisUrl,
    redisKeyPrefix: environment.redisPrefix,
    gatewayEnv: { REGISTER_CLIENT_RATE_LIMIT: '3', REGISTER_CLIENT_RATE_WINDOW: '60' },
  });
});

afterAll(() => suite?.close());

it('answers 429 with the envelope and Retry-After once create and regenerate used the budget', async () => {
  const { token } = await newDeveloper(suite);
  const body = {
    name: 'Web',
    redirectUris: ['https://a.example/cb'],
    tokenEndpointAuthMethod: 'client_secret_basic',
  };
  const created = await call<{ id: string }>(suite, 'POST', '/api/clients/', { token, body });
  expect(created.status).toBe(201);
  expect(
    (await call(suite, 'POST', `/api/clients/${created.body.id}/regenerate-secret`, { token })).status,
  ).toBe(200);
  expect((await call(suite, 'POST', '/api/clients', { token, body })).status).toBe(201);

  for (const [path, request] of [
    [`/api/clients/${created.body.id}/regenerate-secret`, {}],
    ['/api/clients/', { body }],
  ] as const) {
    const limited = await call(suite, 'POST', path, { token, ...request });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ error: 'Too many requests', statusCode: 429, code: 'RATE_LIMITED' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
  }
  // Other developer-API routes keep their own (default) budget.
  expect((await call(suite, 'GET', '/api/clients', { token })).status).toBe(200);
});
