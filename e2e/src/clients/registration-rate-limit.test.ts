import { expect, it } from 'vitest';
import { useSuite } from '../support/use-suite.js';
import { call, newDeveloper } from '../support/clients.js';

// interface.md 8: POST /oauth/register shares the per-IP budget of POST /api/clients/ and
// regenerate-secret.
const context = useSuite({
  gatewayEnv: { REGISTER_CLIENT_RATE_LIMIT: '2', REGISTER_CLIENT_RATE_WINDOW: '60' },
});

const registration = { redirect_uris: ['https://app.example/cb'], token_endpoint_auth_method: 'none' };
const developerClient = { name: 'Web', redirectUris: ['https://a.example/cb'] };

it('answers 429 on both surfaces once registration and the developer API used the budget', async () => {
  const { suite } = context;
  const { token } = await newDeveloper(suite);
  expect((await call(suite, 'POST', '/oauth/register', { body: registration })).status).toBe(201);
  expect((await call(suite, 'POST', '/api/clients/', { token, body: developerClient })).status).toBe(201);

  const registerLimited = await call(suite, 'POST', '/oauth/register', { body: registration });
  expect(registerLimited.status).toBe(429);
  expect(registerLimited.body).toEqual({ error: 'rate_limited', code: 'RATE_LIMITED', statusCode: 429 });
  expect(Number(registerLimited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

  const createLimited = await call(suite, 'POST', '/api/clients/', { token, body: developerClient });
  expect(createLimited.status).toBe(429);
  expect(createLimited.body).toEqual({ error: 'Too many requests', statusCode: 429, code: 'RATE_LIMITED' });
});
