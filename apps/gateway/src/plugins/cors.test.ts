import { InvalidGrantError } from '@authz/shared/errors';
import { describe, expect, it } from 'vitest';
import { useStubbedGateway } from '../../test/stub-upstreams.js';

// CORS (docs/discovery.md #3): the endpoints browser-based clients call answer any origin, never
// with credentials (cookies); cookie routes get no CORS headers at all.
const gateway = useStubbedGateway({
  stubs: {
    tokens: {
      token: async () => {
        throw new InvalidGrantError();
      },
    },
  },
});

const SPA = 'https://spa.example';

describe('CORS', () => {
  it('answers the preflight of the token endpoint', async () => {
    const response = await gateway.app.inject({
      method: 'OPTIONS',
      url: '/oauth/token',
      headers: {
        origin: SPA,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });

    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect({
      allowOrigin: response.headers['access-control-allow-origin'],
      allowMethods: response.headers['access-control-allow-methods'],
      allowHeaders: response.headers['access-control-allow-headers'],
      maxAge: response.headers['access-control-max-age'],
      exposeHeaders: response.headers['access-control-expose-headers'],
      allowCredentials: response.headers['access-control-allow-credentials'],
      resourcePolicy: response.headers['cross-origin-resource-policy'],
    }).toEqual({
      allowOrigin: '*',
      allowMethods: 'POST',
      allowHeaders: 'Authorization, Content-Type, DPoP',
      maxAge: '86400',
      exposeHeaders: 'WWW-Authenticate, Retry-After, X-Request-Id, DPoP-Nonce',
      allowCredentials: undefined,
      resourcePolicy: 'cross-origin',
    });
    expect(gateway.calls).toEqual([]);
  });

  it('lets a browser client read a token endpoint error', async () => {
    const response = await gateway.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { origin: SPA, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=authorization_code&code=x&client_id=spa',
    });

    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'invalid_grant', code: 'INVALID_GRANT', statusCode: 400 });
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['access-control-expose-headers']).toBe(
      'WWW-Authenticate, Retry-After, X-Request-Id, DPoP-Nonce',
    );
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('opens no cookie route cross-origin', async () => {
    const preflight = await gateway.app.inject({
      method: 'OPTIONS',
      url: '/ui/login',
      headers: { origin: SPA, 'access-control-request-method': 'POST' },
    });

    expect(preflight.statusCode).toBe(404);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers['access-control-allow-methods']).toBeUndefined();
    expect(preflight.headers['cross-origin-resource-policy']).toBe('same-site');
  });
});
