import { describe, expect, it } from 'vitest';
import { call, webApp } from '../support/clients.js';
import { useDevelopers } from '../support/use-developers.js';
import { INACTIVE, introspect, revoke, type FormResponse } from '../support/token-management.js';
import { basicAuth, INVALID_CLIENT, newClient, requestToken, type FormField } from '../support/tokens.js';

// RFC 7009 and interface.md 2.5, 4.3, 5 end to end: POST /oauth/revoke through the gateway, real gRPC
// services, Postgres and Redis (docs/tokens.md #24, #25). Refresh-token families of
// confidential clients are revoked in the oauth service's own tests: no grant issues one yet.
const developers = useDevelopers({ REGISTER_CLIENT_RATE_LIMIT: '1000' });

async function machine() {
  const client = await newClient(developers.suite, developers.alice.token);
  return { ...client, basic: basicAuth(client.clientId, client.clientSecret!) };
}

async function accessToken(basic: Record<string, string>): Promise<string> {
  const response = await requestToken(developers.suite, [['grant_type', 'client_credentials']], basic);
  expect(response.status).toBe(200);
  return response.body.access_token as string;
}

const isActive = async (basic: Record<string, string>, token: string) =>
  (await introspect(developers.suite, [['token', token]], basic)).body;

/** interface.md 4.3: 200, empty body, not cacheable, readable cross-origin. */
function expectRevoked(response: FormResponse): void {
  expect({ status: response.status, text: response.text }).toEqual({ status: 200, text: '' });
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.headers.get('access-control-allow-origin')).toBe('*');
}

describe('access tokens (interface.md 2.5: denied by jti)', () => {
  it('revoked by their own client: 200 with an empty body, then inactive', async () => {
    const client = await machine();
    const token = await accessToken(client.basic);
    expect(await isActive(client.basic, token)).toMatchObject({ active: true });
    expectRevoked(await revoke(developers.suite, [['token', token]], client.basic));
    expect(await isActive(client.basic, token)).toEqual(INACTIVE);
  });

  it('with a refresh_token hint, and through client_secret_post', async () => {
    const client = await newClient(developers.suite, developers.alice.token, {
      name: 'Poster',
      grantTypes: ['client_credentials'],
      responseTypes: [],
      tokenEndpointAuthMethod: 'client_secret_post',
    });
    const credentials: FormField[] = [
      ['client_id', client.clientId],
      ['client_secret', client.clientSecret!],
    ];
    const issued = await requestToken(developers.suite, [
      ['grant_type', 'client_credentials'],
      ...credentials,
    ]);
    const token = issued.body.access_token as string;
    expectRevoked(
      await revoke(developers.suite, [
        ['token', token],
        ['token_type_hint', 'refresh_token'],
        ...credentials,
      ]),
    );
    const after = await introspect(developers.suite, [['token', token], ...credentials]);
    expect(after.body).toEqual(INACTIVE);
  });

  it('not owned: still 200, and the token stays active', async () => {
    const owner = await machine();
    const other = await machine();
    const token = await accessToken(owner.basic);
    expectRevoked(await revoke(developers.suite, [['token', token]], other.basic));
    expect(await isActive(owner.basic, token)).toMatchObject({ active: true });
  });
});

describe('anything else is a silent 200 (interface.md 4.3)', () => {
  it('garbage, unknown, empty, repeated or missing tokens and unknown hints', async () => {
    const client = await machine();
    const token = await accessToken(client.basic);
    const requests: FormField[][] = [
      [['token', 'garbage']],
      [['token', '0'.repeat(64)]],
      [['token', 'eyJhbGciOiJFZERTQSJ9.e30.c2ln']],
      [['token', '']],
      [],
      [
        ['token', 'garbage'],
        ['token_type_hint', 'id_token'],
      ],
      [
        ['token', token],
        ['token', token],
      ],
    ];
    for (const fields of requests) expectRevoked(await revoke(developers.suite, fields, client.basic));
    expect(await isActive(client.basic, token)).toMatchObject({ active: true });
  });

  it('a first-party refresh token named by a confidential client: 200, and it keeps working', async () => {
    const client = await machine();
    const refreshToken = developers.bob.refreshToken;
    expectRevoked(
      await revoke(
        developers.suite,
        [
          ['token', refreshToken],
          ['token_type_hint', 'refresh_token'],
        ],
        client.basic,
      ),
    );
    const refreshed = await requestToken(developers.suite, [
      ['grant_type', 'refresh_token'],
      ['client_id', 'authz-first-party'],
      ['refresh_token', refreshToken],
    ]);
    expect(refreshed.status).toBe(200);
  });
});

describe('the only refusal: invalid_client', () => {
  it('a failed Basic authentication: 401 with a Basic challenge', async () => {
    const client = await machine();
    const token = await accessToken(client.basic);
    const response = await revoke(developers.suite, [['token', token]], basicAuth(client.clientId, 'nope'));
    expect({ status: response.status, body: response.body }).toEqual({ status: 401, body: INVALID_CLIENT });
    expect(response.headers.get('www-authenticate')).toBe('Basic realm="authz"');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await isActive(client.basic, token)).toMatchObject({ active: true });
  });

  it('no credentials, a public client or the first-party client: 401 without a challenge', async () => {
    const publicClient = await newClient(developers.suite, developers.alice.token, {
      ...webApp,
      tokenEndpointAuthMethod: 'none',
    });
    const attempts: FormField[][] = [
      [['token', 'garbage']],
      [
        ['token', 'garbage'],
        ['client_id', publicClient.clientId],
      ],
      // The first-party client is public: it cannot revoke its own login tokens here.
      [
        ['token', developers.alice.refreshToken],
        ['client_id', 'authz-first-party'],
      ],
    ];
    for (const fields of attempts) {
      const response = await revoke(developers.suite, fields);
      expect({ fields, status: response.status, body: response.body }).toEqual({
        fields,
        status: 401,
        body: INVALID_CLIENT,
      });
      expect(response.headers.get('www-authenticate')).toBeNull();
    }
  });

  it('an API key does not stand in for the secret (docs/decisions.md #15)', async () => {
    const client = await machine();
    const created = await call<{ key: string }>(
      developers.suite,
      'POST',
      `/api/clients/${client.id}/api-keys`,
      {
        token: developers.alice.token,
        body: { name: 'CI' },
      },
    );
    const response = await revoke(
      developers.suite,
      [['token', 'garbage']],
      basicAuth(client.clientId, created.body.key),
    );
    expect({ status: response.status, body: response.body }).toEqual({ status: 401, body: INVALID_CLIENT });
  });
});

describe('CORS (browser-based clients revoke their tokens too)', () => {
  it('answers the preflight for POST', async () => {
    const response = await fetch(`${developers.suite.baseUrl}/oauth/revoke`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://spa.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toBe('POST');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('has no preflight at introspection, which is for resource servers', async () => {
    const response = await fetch(`${developers.suite.baseUrl}/oauth/introspect`, {
      method: 'OPTIONS',
      headers: { origin: 'https://spa.example', 'access-control-request-method': 'POST' },
    });
    expect(response.status).toBe(404);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});
