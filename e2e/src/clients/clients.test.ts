import { randomUUID } from 'node:crypto';
import { keyedHash } from '@authz/shared/crypto';
import { describe, expect, it } from 'vitest';
import {
  call,
  type ClientView,
  createClient,
  expectedView,
  newDeveloper,
  REDIRECT_URI_MESSAGE,
  UNAUTHORIZED,
  validationError,
  webApp,
} from '../support/clients.js';
import { bearerChallenge } from '../support/http.js';
import { useDevelopers } from '../support/use-developers.js';

// interface.md 4.7 end to end: every row through the gateway, real gRPC services, Postgres and Redis.
const developers = useDevelopers({ REGISTER_CLIENT_RATE_LIMIT: '1000' });
// The shared budget of interface.md 8 has its own file (rate-limit.test.ts).

const create = (token: string, body?: Record<string, unknown>) => createClient(developers.suite, token, body);

describe('authentication (interface.md 5, docs/decisions.md #3)', () => {
  const routes: [string, string][] = [
    ['GET', '/api/clients/'],
    ['POST', '/api/clients/'],
    ['GET', `/api/clients/${randomUUID()}`],
    ['PATCH', `/api/clients/${randomUUID()}`],
    ['DELETE', `/api/clients/${randomUUID()}`],
    ['POST', `/api/clients/${randomUUID()}/regenerate-secret`],
  ];

  it('answers 401 with a Bearer challenge for a missing, malformed or garbage token', async () => {
    for (const [method, path] of routes) {
      for (const authorization of [undefined, 'Basic YWxpY2U6c2VjcmV0', 'Bearer not-a-jwt']) {
        const response = await fetch(`${developers.suite.baseUrl}${path}`, {
          method,
          headers: {
            ...(authorization ? { authorization } : {}),
            ...(method === 'POST' || method === 'PATCH' ? { 'content-type': 'application/json' } : {}),
          },
          ...(method === 'POST' || method === 'PATCH' ? { body: '{}' } : {}),
        });
        expect(response.status, `${method} ${path} ${authorization}`).toBe(401);
        expect(await response.json()).toEqual(UNAUTHORIZED);
        expect(response.headers.get('www-authenticate')).toBe(bearerChallenge(developers.suite.baseUrl));
        expect(response.headers.get('cache-control')).toBe('no-store');
      }
    }
  });

  it('refuses a refresh token and a logged-out access token', async () => {
    const carol = await newDeveloper(developers.suite);
    expect(await call(developers.suite, 'GET', '/api/clients', { token: carol.refreshToken })).toMatchObject({
      status: 401,
      body: UNAUTHORIZED,
    });
    expect((await call(developers.suite, 'GET', '/api/clients', { token: carol.token })).status).toBe(200);
    expect((await call(developers.suite, 'POST', '/auth/logout', { token: carol.token })).status).toBe(200);
    expect(await call(developers.suite, 'GET', '/api/clients', { token: carol.token })).toMatchObject({
      status: 401,
      body: UNAUTHORIZED,
    });
  });
});

describe('GET and POST /api/clients/ (interface.md 4.7, 2.2)', () => {
  it('lists nothing, then the created clients, with and without the trailing slash', async () => {
    const dave = await newDeveloper(developers.suite);
    expect(await call(developers.suite, 'GET', '/api/clients/', { token: dave.token })).toMatchObject({
      status: 200,
      body: { clients: [] },
    });
    const first = await create(dave.token, { name: 'First', redirectUris: ['https://a.example/cb'] });
    const second = await create(dave.token, { name: 'Second', redirectUris: ['https://b.example/cb'] });
    const listed = await call<{ clients: ClientView[] }>(developers.suite, 'GET', '/api/clients', {
      token: dave.token,
    });
    expect(listed.status).toBe(200);
    const { clientSecret: _none, ...firstView } = first.body;
    expect(listed.body.clients).toEqual([firstView, second.body]);
  });

  it('creates a public client with the defaults: 201, no-store, no secret', async () => {
    const created = await create(developers.alice.token, {
      name: 'SPA',
      redirectUris: ['http://localhost:5173/cb'],
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(created.body).toEqual(expectedView({ name: 'SPA', redirectUris: ['http://localhost:5173/cb'] }));
    expect(created.body.updatedAt).toBe(created.body.createdAt);
  });

  it('creates a confidential client with a 64-hex secret stored only as its keyed hash', async () => {
    const created = await create(developers.alice.token, {
      ...webApp,
      description: 'Our web app',
      unknownKey: 1,
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(created.body).toEqual(
      expectedView({
        ...webApp,
        description: 'Our web app',
        clientSecret: expect.stringMatching(/^[0-9a-f]{64}$/),
      }),
    );
    const { rows } = await developers.sql.query(
      `SELECT row_to_json(c)::text AS row, secret_hash FROM clients.clients c WHERE id = $1`,
      [created.body.id],
    );
    expect(rows[0].secret_hash).toBe(keyedHash(developers.secretHashKey, created.body.clientSecret!));
    expect(rows[0].row).not.toContain(created.body.clientSecret);
  });

  it('refuses invalid settings with one detail per field (interface.md 7)', async () => {
    const cases: [Record<string, unknown>, { path: string; message: string }[]][] = [
      [
        {
          name: 'x',
          redirectUris: ['http://app.example/cb', 'https://ok.example/cb', 'https://a.example/cb#frag', 'cb'],
        },
        [
          { path: 'redirectUris.0', message: REDIRECT_URI_MESSAGE },
          { path: 'redirectUris.2', message: REDIRECT_URI_MESSAGE },
          { path: 'redirectUris.3', message: REDIRECT_URI_MESSAGE },
        ],
      ],
      [
        { name: 'x', redirectUris: ['https://a.example/cb'], responseTypes: [] },
        [{ path: 'responseTypes', message: 'must contain code for authorization_code' }],
      ],
      [
        { name: 'x', grantTypes: ['client_credentials'], tokenEndpointAuthMethod: 'client_secret_post' },
        [{ path: 'responseTypes', message: 'code requires the authorization_code grant' }],
      ],
      [
        { name: 'x', redirectUris: ['https://a.example/cb'], grantTypes: ['refresh_token', 'password'] },
        [
          {
            path: 'grantTypes',
            message:
              'must be among authorization_code, refresh_token, client_credentials, urn:ietf:params:oauth:grant-type:device_code',
          },
          { path: 'responseTypes', message: 'code requires the authorization_code grant' },
        ],
      ],
      [
        { name: 'x', grantTypes: ['client_credentials'], responseTypes: [] },
        [
          {
            path: 'grantTypes',
            message: 'client_credentials requires a confidential tokenEndpointAuthMethod',
          },
        ],
      ],
      [
        { name: 'x' },
        [
          {
            path: 'redirectUris',
            message: 'at least one is required for authorization_code or refresh_token',
          },
        ],
      ],
      [
        { name: 'x', redirectUris: ['https://a.example/cb'], scopes: ['openid', 'admin', 'payments'] },
        [{ path: 'scopes', message: "outside the realm's allowed scopes: admin payments" }],
      ],
      [
        { name: '', redirectUris: ['https://a.example/cb'] },
        [{ path: 'name', message: 'must be 1 to 255 characters long' }],
      ],
      [
        { name: 'n'.repeat(256), redirectUris: ['https://a.example/cb'] },
        [{ path: 'name', message: 'must be 1 to 255 characters long' }],
      ],
      [
        { name: 'x', redirectUris: ['https://a.example/cb'], tokenEndpointAuthMethod: 'private_key_jwt' },
        [{ path: 'jwks', message: 'jwks or jwksUri is required for private_key_jwt' }],
      ],
      // docs/errors.md: a mistyped value stops the body at the gateway, alone.
      [
        { redirectUris: 'https://a.example/cb', scopes: 'openid' },
        [
          { path: 'redirectUris', message: 'must be array' },
          { path: 'scopes', message: 'must be array' },
        ],
      ],
      // Everything else is the service's, reported together: name is checked there too.
      [
        {
          redirectUris: ['http://a.example/cb'],
          scopes: ['openid', 'admin'],
          grantTypes: ['authorization_code', 'password'],
          tokenEndpointAuthMethod: 'mtls',
        },
        [
          { path: 'name', message: 'must be 1 to 255 characters long' },
          { path: 'redirectUris.0', message: REDIRECT_URI_MESSAGE },
          { path: 'scopes', message: "outside the realm's allowed scopes: admin" },
          {
            path: 'grantTypes',
            message:
              'must be among authorization_code, refresh_token, client_credentials, urn:ietf:params:oauth:grant-type:device_code',
          },
          {
            path: 'tokenEndpointAuthMethod',
            message: 'must be one of none, client_secret_post, client_secret_basic, private_key_jwt',
          },
        ],
      ],
    ];
    for (const [body, details] of cases) {
      const response = await create(developers.alice.token, body);
      expect({ body, status: response.status, response: response.body }).toEqual({
        body,
        status: 400,
        response: validationError(details),
      });
    }
  });

  // docs/clients.md #5: no secret for a client that does not authenticate with one.
  it.each([
    [
      'jwks',
      { jwks: { keys: [{ kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' }] } },
    ],
    ['an https jwksUri', { jwksUri: 'https://keys.example/jwks.json' }],
  ])('accepts private_key_jwt with %s and issues no secret (docs/decisions.md #16)', async (_name, keys) => {
    const base = {
      name: 'Service',
      grantTypes: ['client_credentials'],
      responseTypes: [],
      tokenEndpointAuthMethod: 'private_key_jwt',
    };
    const created = await create(developers.alice.token, { ...base, ...keys });
    expect(created.status).toBe(201);
    expect(created.body).toEqual(expectedView({ ...base, name: 'Service' }));
    const { rows } = await developers.sql.query('SELECT secret_hash FROM clients.clients WHERE id = $1', [
      created.body.id,
    ]);
    expect(rows).toEqual([{ secret_hash: null }]);
    const regenerated = await call(
      developers.suite,
      'POST',
      `/api/clients/${created.body.id}/regenerate-secret`,
      {
        token: developers.alice.token,
      },
    );
    expect({ status: regenerated.status, body: regenerated.body }).toEqual({
      status: 400,
      body: validationError([
        {
          path: 'tokenEndpointAuthMethod',
          message: 'is private_key_jwt: the client authenticates with its keys, not a secret',
        },
      ]),
    });
  });

  it('issues no secret to a public client (none)', async () => {
    const body = { name: 'Public', redirectUris: ['https://a.example/cb'], tokenEndpointAuthMethod: 'none' };
    const created = await create(developers.alice.token, body);
    expect({ status: created.status, body: created.body }).toEqual({
      status: 201,
      body: expectedView({ name: 'Public', redirectUris: ['https://a.example/cb'] }),
    });
  });
});
