import {
  RateLimitedError,
  ServiceUnavailableError,
  UpstreamTimeoutError,
  ValidationError,
} from '@authz/shared/errors';
import { beforeEach, describe, expect, it } from 'vitest';
import { useStubbedGateway } from '../../test/stub-upstreams.js';

// How a failed gRPC call becomes the HTTP answer (docs/errors.md "Across gRPC", docs/operations.md
// "A service unreachable"): the API envelope on the API routes, the OAuth error body on the
// OAuth endpoints, never cached, nothing private.
const FORM = 'application/x-www-form-urlencoded';

function register(app: ReturnType<typeof useStubbedGateway>['app']) {
  return app.inject({
    method: 'POST',
    url: '/auth/register',
    payload: { email: 'new@example.com', password: 'amber-Falcon-meadow-27' },
  });
}

function token(app: ReturnType<typeof useStubbedGateway>['app']) {
  return app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: { 'content-type': FORM },
    payload: 'grant_type=client_credentials&client_id=c1&client_secret=s1',
  });
}

describe('an upstream that does not answer (UNAVAILABLE)', () => {
  const gateway = useStubbedGateway({ down: ['identity', 'oauth'] });

  it('is a 503 API error on an API route', async () => {
    const response = await register(gateway.app);

    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      error: 'Service unavailable',
      statusCode: 503,
      code: 'SERVICE_UNAVAILABLE',
    });
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers.pragma).toBeUndefined();
  });

  it('is temporarily_unavailable on the token endpoint', async () => {
    const response = await token(gateway.app);

    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      error: 'temporarily_unavailable',
      code: 'TEMPORARILY_UNAVAILABLE',
      statusCode: 503,
    });
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers.pragma).toBe('no-cache');
  });
});

describe('an error an upstream answers', () => {
  const gateway = useStubbedGateway();
  const fail = (error: Error) => async (): Promise<never> => {
    throw error;
  };
  beforeEach(() => {
    gateway.stubs.identity = {};
    gateway.stubs.tokens = {};
  });

  it('keeps its field violations', async () => {
    gateway.stubs.identity = {
      register: fail(new ValidationError([{ path: 'password', message: 'must be at least 12 characters' }])),
    };

    const response = await register(gateway.app);

    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'Validation error',
      statusCode: 400,
      code: 'VALIDATION_ERROR',
      details: [{ path: 'password', message: 'must be at least 12 characters' }],
    });
  });

  it("keeps a rate limit's Retry-After", async () => {
    gateway.stubs.identity = {
      register: fail(new RateLimitedError({ attributes: { retryAfterSeconds: '42' } })),
    };

    const response = await register(gateway.app);

    expect(response.statusCode).toBe(429);
    expect(response.json()).toEqual({ error: 'Too many requests', statusCode: 429, code: 'RATE_LIMITED' });
    expect(response.headers['retry-after']).toBe('42');
  });

  it("keeps an overloaded service's Retry-After on its 503", async () => {
    gateway.stubs.identity = {
      register: fail(new ServiceUnavailableError({ attributes: { retryAfterSeconds: '1' } })),
    };

    const response = await register(gateway.app);

    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      error: 'Service unavailable',
      statusCode: 503,
      code: 'SERVICE_UNAVAILABLE',
    });
    expect(response.headers['retry-after']).toBe('1');
  });

  it('turns a deadline passed upstream into 504, and into temporarily_unavailable on OAuth endpoints', async () => {
    gateway.stubs.identity = { register: fail(new UpstreamTimeoutError()) };
    gateway.stubs.tokens = { token: fail(new UpstreamTimeoutError()) };

    const api = await register(gateway.app);
    const oauth = await token(gateway.app);

    expect([api.statusCode, api.json()]).toEqual([
      504,
      { error: 'Upstream service timed out', statusCode: 504, code: 'UPSTREAM_TIMEOUT' },
    ]);
    expect([oauth.statusCode, oauth.json()]).toEqual([
      503,
      { error: 'temporarily_unavailable', code: 'TEMPORARILY_UNAVAILABLE', statusCode: 503 },
    ]);
  });

  it('turns an unexpected failure into a 500 that tells nothing of it', async () => {
    const secret = 'connection to 10.1.2.3 refused for user svc_identity';
    gateway.stubs.identity = { register: fail(new Error(secret)) };
    gateway.stubs.tokens = { token: fail(new Error(secret)) };

    const api = await register(gateway.app);
    const oauth = await token(gateway.app);

    expect([api.statusCode, api.json()]).toEqual([
      500,
      { error: 'Internal server error', statusCode: 500, code: 'INTERNAL_ERROR' },
    ]);
    expect([oauth.statusCode, oauth.json()]).toEqual([
      500,
      { error: 'server_error', code: 'SERVER_ERROR', statusCode: 500 },
    ]);
    expect(api.body + oauth.body).not.toContain('10.1.2.3');
  });
});
