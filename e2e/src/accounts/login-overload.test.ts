import { describe, expect, it } from 'vitest';
import { postJson } from '../support/http.js';
import { useSuite } from '../support/use-suite.js';

// docs/identity.md #16 through the gateway: identity hashes one password at a time with one
// caller waiting, at a cost high enough that a burst of sign-ins overlaps in argon2id. The
// gateway's own budgets are off, so only identity refuses (interface.md 7, docs/errors.md).
const context = useSuite({
  gatewayEnv: { RATE_LIMIT_ENABLED: 'false' },
  serviceEnv: { ARGON2_ITERATIONS: '300', ARGON2_CONCURRENCY: '1', ARGON2_QUEUE: '1' },
});
const email = `overload${Date.now()}@example.com`;
const password = 'quartz-Harbor-lantern-41';
const BURST = 6;

const login = () => postJson(context.url('/auth/login'), { email, password });

describe('POST /auth/login while identity has no room for another password hash', () => {
  it('answers the burst beyond the queue 503 with Retry-After, never 500, then signs in again', async () => {
    expect((await postJson(context.url('/auth/register'), { email, password })).status).toBe(201);

    const responses = await Promise.all(Array.from({ length: BURST }, login));

    const statuses = responses.map((response) => response.status);
    expect(
      statuses.every((status) => status === 200 || status === 503),
      String(statuses),
    ).toBe(true);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(1);
    const refused = responses.filter((response) => response.status === 503);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const response of refused) {
      expect(response.body).toEqual({
        error: 'Service unavailable',
        statusCode: 503,
        code: 'SERVICE_UNAVAILABLE',
      });
      expect(response.headers.get('retry-after')).toBe('1');
      expect(response.headers.get('cache-control')).toBe('no-store');
    }

    const after = await login();
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ token_type: 'Bearer', access_token: expect.any(String) });
  }, 30_000);
});
