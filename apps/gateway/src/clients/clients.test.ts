import { randomBytes, randomUUID } from 'node:crypto';
import { keyedHash } from '@authz/shared/crypto';
import { useTestEnvironment } from '@authz/shared/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSuite, type Suite } from '../test/suite.js';
import {
  call,
  newDeveloper,
  NOT_FOUND,
  REDIRECT_URI_MESSAGE,
  UNAUTHORIZED,
  validationError,
} from './test-helpers.js';

// Spec 4.7 end to end: every row through the gateway, real gRPC services, Postgres and Redis.
const environment = useTestEnvironment();
const secretHashKey = randomBytes(32);
let suite: Suite;
let sql: pg.Pool;
let alice: { token: string; refreshToken: string };
let bob: { token: string; refreshToken: string };

beforeAll(async () => {
  suite = await startSuite({
    databaseUrl: environment.databaseUrl,
    redisUrl: environment.redisUrl,
    redisKeyPrefix: environment.redisPrefix,
    serviceEnv: { SECRET_HASH_KEY: secretHashKey.toString('hex') },
    // The shared budget of spec 8 has its own file (rate-limit.test.ts).
    gatewayEnv: { REGISTER_CLIENT_RATE_LIMIT: '1000' },
  });
  sql = new pg.Pool({ connectionString: environment.databaseUrl, max: 2 });
  [alice, bob] = await Promise.all([newDeveloper(suite), newDeveloper(suite)]);
});

afterAll(async () => {
  await sql?.end();
  await suite?.close();
});

type ClientView = Record<string, unknown> & { id: string; clientId: string; clientSecret?: string };

const webApp = {
  name: 'Web app',
  redirectUris: ['https://app.example/callback', 'http://127.0.0.1:8080/cb'],
  scopes: ['openid', 'email'],
  tokenEndpointAuthMethod: 'client_secret_basic',
};

async function create(token: string, body: Record<string, unknown> = webApp) {
  return call<ClientView>(suite, 'POST', '/api/clients/', { token, body });
}

function expectedView(overrides: Record<string, unknown>) {
  return {
    id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    clientId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/),
    description: null,
    redirectUris: [],
    scopes: [],
    grantTypes: ['authorization_code', 'refresh_token'],
    responseTypes: ['code'],
    tokenEndpointAuthMethod: 'none',
    enabled: true,
    requirePkce: true,
    createdAt: expect.any(Number),
    updatedAt: expect.any(Number),
    lastUsedAt: null,
    ...overrides,
  };
}

describe('authentication (spec 5, DECISIONS.md #3)', () => {
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
        const response = await fetch(`${suite.baseUrl}${path}`, {
          method,
          headers: {
            ...(authorization ? { authorization } : {}),
            ...(method === 'POST' || method === 'PATCH' ? { 'content-type': 'application/json' } : {}),
          },
          ...(method === 'POST' || method === 'PATCH' ? { body: '{}' } : {}),
        });
        expect(response.status, `${method} ${path} ${authorization}`).toBe(401);
        expect(await response.json()).toEqual(UNAUTHORIZED);
        expect(response.headers.get('www-authenticate')).toBe('Bearer realm="authz"');
        expect(response.headers.get('cache-control')).toBe('no-store');
      }
    }
  });

  it('refuses a refresh token and a logged-out access token', async () => {
    const carol = await newDeveloper(suite);
    expect(await call(suite, 'GET', '/api/clients', { token: carol.refreshToken })).toMatchObject({
      status: 401,
      body: UNAUTHORIZED,
    });
    expect((await call(suite, 'GET', '/api/clients', { token: carol.token })).status).toBe(200);
    expect((await call(suite, 'POST', '/auth/logout', { token: carol.token })).status).toBe(200);
    expect(await call(suite, 'GET', '/api/clients', { token: carol.token })).toMatchObject({
      status: 401,
      body: UNAUTHORIZED,
    });
  });
});

describe('GET and POST /api/clients/ (spec 4.7, 2.2)', () => {
  it('lists nothing, then the created clients, with and without the trailing slash', async () => {
    const dave = await newDeveloper(suite);
    expect(await call(suite, 'GET', '/api/clients/', { token: dave.token })).toMatchObject({
      status: 200,
      body: { clients: [] },
    });
    const first = await create(dave.token, { name: 'First', redirectUris: ['https://a.example/cb'] });
    const second = await create(dave.token, { name: 'Second', redirectUris: ['https://b.example/cb'] });
    const listed = await call<{ clients: ClientView[] }>(suite, 'GET', '/api/clients', { token: dave.token });
    expect(listed.status).toBe(200);
    const { clientSecret: _none, ...firstView } = first.body;
    expect(listed.body.clients).toEqual([firstView, second.body]);
  });

  it('creates a public client with the defaults: 201, no-store, no secret', async () => {
    const created = await create(alice.token, { name: 'SPA', redirectUris: ['http://localhost:5173/cb'] });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(created.body).toEqual(expectedView({ name: 'SPA', redirectUris: ['http://localhost:5173/cb'] }));
    expect(created.body.updatedAt).toBe(created.body.createdAt);
  });

  it('creates a confidential client with a 64-hex secret stored only as its keyed hash', async () => {
    const created = await create(alice.token, { ...webApp, description: 'Our web app', unknownKey: 1 });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(created.body).toEqual(
      expectedView({
        ...webApp,
        description: 'Our web app',
        clientSecret: expect.stringMatching(/^[0-9a-f]{64}$/),
      }),
    );
    const { rows } = await sql.query(
      `SELECT row_to_json(c)::text AS row, secret_hash FROM clients.clients c WHERE id = $1`,
      [created.body.id],
    );
    expect(rows[0].secret_hash).toBe(keyedHash(secretHashKey, created.body.clientSecret!));
    expect(rows[0].row).not.toContain(created.body.clientSecret);
  });

  it('refuses invalid settings with one detail per field (spec 7)', async () => {
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
            message: 'must be among authorization_code, refresh_token, client_credentials',
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
      [
        { redirectUris: 'https://a.example/cb' },
        [
          { path: 'name', message: "must have required property 'name'" },
          { path: 'redirectUris', message: 'must be array' },
        ],
      ],
    ];
    for (const [body, details] of cases) {
      const response = await create(alice.token, body);
      expect({ body, status: response.status, response: response.body }).toEqual({
        body,
        status: 400,
        response: validationError(details),
      });
    }
  });

  it('accepts private_key_jwt with jwks or an https jwksUri (DECISIONS.md #16)', async () => {
    const jwks = { keys: [{ kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' }] };
    const base = {
      name: 'Service',
      grantTypes: ['client_credentials'],
      responseTypes: [],
      tokenEndpointAuthMethod: 'private_key_jwt',
    };
    expect((await create(alice.token, { ...base, jwks })).status).toBe(201);
    expect((await create(alice.token, { ...base, jwksUri: 'https://keys.example/jwks.json' })).status).toBe(
      201,
    );
  });
});

describe('GET, PATCH, DELETE /api/clients/{id} (spec 4.7, DECISIONS.md #22)', () => {
  it('finds a client by record id or client id, and 404s for others, unknown ids and the first-party client', async () => {
    const { body: created } = await create(alice.token);
    const { clientSecret: _secret, ...view } = created;
    for (const id of [created.id, created.clientId, `${created.clientId}/`]) {
      expect(await call(suite, 'GET', `/api/clients/${id}`, { token: alice.token })).toMatchObject({
        status: 200,
        body: view,
      });
    }
    for (const [token, id] of [
      [bob.token, created.id],
      [bob.token, created.clientId],
      [alice.token, randomUUID()],
      [alice.token, 'authz-first-party'],
    ] as const) {
      for (const method of ['GET', 'PATCH', 'DELETE']) {
        const response = await call(suite, method, `/api/clients/${id}`, {
          token,
          ...(method === 'PATCH' ? { body: { name: 'stolen' } } : {}),
        });
        expect({ method, id, status: response.status, body: response.body }).toEqual({
          method,
          id,
          status: 404,
          body: NOT_FOUND,
        });
      }
    }
    expect((await call(suite, 'GET', `/api/clients/${created.id}`, { token: alice.token })).body).toEqual(
      view,
    );
  });

  it('PATCH changes only the settable fields present and ignores immutables and unknown keys', async () => {
    const { body: created } = await create(alice.token);
    const patched = await call<ClientView>(suite, 'PATCH', `/api/clients/${created.clientId}/`, {
      token: alice.token,
      body: {
        name: 'Renamed',
        description: null,
        enabled: false,
        scopes: ['profile'],
        clientId: 'mine-now',
        clientSecret: 'f'.repeat(64),
        secret: 'x',
        developerId: randomUUID(),
        id: randomUUID(),
        somethingElse: true,
      },
    });
    expect(patched.status).toBe(200);
    const { clientSecret: _secret, ...view } = created;
    expect(patched.body).toEqual({
      ...view,
      name: 'Renamed',
      enabled: false,
      scopes: ['profile'],
      updatedAt: expect.any(Number),
    });
    expect(patched.body.updatedAt).toBeGreaterThanOrEqual(created.updatedAt as number);
    const { rows } = await sql.query(`SELECT secret_hash FROM clients.clients WHERE id = $1`, [created.id]);
    expect(rows[0].secret_hash).toBe(keyedHash(secretHashKey, created.clientSecret!));
  });

  it('PATCH revalidates the effective configuration', async () => {
    const { body: created } = await create(alice.token);
    const path = `/api/clients/${created.id}`;
    const refused: [Record<string, unknown>, { path: string; message: string }[]][] = [
      [
        { redirectUris: [] },
        [
          {
            path: 'redirectUris',
            message: 'at least one is required for authorization_code or refresh_token',
          },
        ],
      ],
      [
        { grantTypes: ['refresh_token'] },
        [
          { path: 'grantTypes', message: 'refresh_token requires authorization_code' },
          { path: 'responseTypes', message: 'code requires the authorization_code grant' },
        ],
      ],
      [
        { tokenEndpointAuthMethod: 'none', grantTypes: ['client_credentials'] },
        [
          {
            path: 'grantTypes',
            message: 'client_credentials requires a confidential tokenEndpointAuthMethod',
          },
          { path: 'responseTypes', message: 'code requires the authorization_code grant' },
        ],
      ],
      [{ scopes: ['admin'] }, [{ path: 'scopes', message: "outside the realm's allowed scopes: admin" }]],
      [{ name: '' }, [{ path: 'name', message: 'must be 1 to 255 characters long' }]],
      [{ enabled: 'no' }, [{ path: 'enabled', message: 'must be boolean' }]],
    ];
    for (const [body, details] of refused) {
      const response = await call(suite, 'PATCH', path, { token: alice.token, body });
      expect({ body, status: response.status, response: response.body }).toEqual({
        body,
        status: 400,
        response: validationError(details),
      });
    }
    const { clientSecret: _secret, ...view } = created;
    expect((await call(suite, 'GET', path, { token: alice.token })).body).toEqual(view);
  });

  it('DELETE answers 204, then the client is gone', async () => {
    const { body: created } = await create(alice.token);
    const deleted = await call(suite, 'DELETE', `/api/clients/${created.clientId}`, { token: alice.token });
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeNull();
    expect(await call(suite, 'GET', `/api/clients/${created.id}`, { token: alice.token })).toMatchObject({
      status: 404,
      body: NOT_FOUND,
    });
    expect(await call(suite, 'DELETE', `/api/clients/${created.id}`, { token: alice.token })).toMatchObject({
      status: 404,
      body: NOT_FOUND,
    });
    const { rows } = await sql.query(`SELECT count(*)::int AS n FROM clients.clients WHERE id = $1`, [
      created.id,
    ]);
    expect(rows[0].n).toBe(0);
  });
});

describe('POST /api/clients/{id}/regenerate-secret (spec 4.7, 3)', () => {
  it('returns a new secret once, no-store, and only the new hash is stored', async () => {
    const { body: created } = await create(alice.token);
    const regenerated = await call<ClientView>(
      suite,
      'POST',
      `/api/clients/${created.id}/regenerate-secret`,
      {
        token: alice.token,
      },
    );
    expect(regenerated.status).toBe(200);
    expect(regenerated.headers.get('cache-control')).toBe('no-store');
    const { clientSecret: oldSecret, ...view } = created;
    expect(regenerated.body).toEqual({
      ...view,
      updatedAt: expect.any(Number),
      clientSecret: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(regenerated.body.clientSecret).not.toBe(oldSecret);
    const { rows } = await sql.query(`SELECT secret_hash FROM clients.clients WHERE id = $1`, [created.id]);
    expect(rows[0].secret_hash).toBe(keyedHash(secretHashKey, regenerated.body.clientSecret!));
    expect(
      (await call(suite, 'GET', `/api/clients/${created.id}`, { token: alice.token })).body,
    ).not.toHaveProperty('clientSecret');
  });

  it('answers 400 for a public client and 404 for another developer', async () => {
    const { body: spa } = await create(alice.token, {
      name: 'SPA',
      redirectUris: ['https://spa.example/cb'],
    });
    expect(
      await call(suite, 'POST', `/api/clients/${spa.clientId}/regenerate-secret/`, { token: alice.token }),
    ).toMatchObject({
      status: 400,
      body: validationError([
        { path: 'tokenEndpointAuthMethod', message: 'is none: a public client has no secret to regenerate' },
      ]),
    });
    const { body: web } = await create(alice.token);
    expect(
      await call(suite, 'POST', `/api/clients/${web.id}/regenerate-secret`, { token: bob.token }),
    ).toMatchObject({
      status: 404,
      body: NOT_FOUND,
    });
  });
});
