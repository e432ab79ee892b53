import { decodeJwt, decodeProtectedHeader } from 'jose';
import { describe, expect, it, vi } from 'vitest';
import { call, webApp } from '../support/clients.js';
import { useDevelopers } from '../support/use-developers.js';
import {
  basicAuth,
  INVALID_CLIENT,
  machineClient,
  newClient,
  requestToken,
  verifyAtJwks,
  waitForLastUsedAt,
  type FormField,
} from '../support/tokens.js';

// interface.md 2.5, 4.3 and docs/decisions.md #8, #9, #15 end to end: HTTP through the gateway, real gRPC
// services, Postgres and Redis. Usage is reported every 100 ms here (docs/tokens.md #18).
const developers = useDevelopers(
  { REGISTER_CLIENT_RATE_LIMIT: '1000' },
  { CLIENT_USAGE_FLUSH_INTERVAL_MS: '100' },
);

const grant: FormField = ['grant_type', 'client_credentials'];

async function machine(body?: Record<string, unknown>) {
  const client = await newClient(developers.suite, developers.alice.token, body);
  return { ...client, basic: basicAuth(client.clientId, client.clientSecret!) };
}

const token = (fields: FormField[], headers: Record<string, string> = {}) =>
  requestToken(developers.suite, [grant, ...fields], headers);

describe('client_credentials (RFC 6749 section 4.4, interface.md 2.5)', () => {
  it('client_secret_basic: a token for the client itself, no refresh token, not cacheable', async () => {
    const client = await machine();
    const response = await token([], client.basic);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('pragma')).toBe('no-cache');
    expect(response.body).toEqual({
      access_token: expect.any(String),
      expires_in: 900,
      token_type: 'Bearer',
    });

    const accessToken = response.body.access_token as string;
    const { payload } = await verifyAtJwks(developers.suite, accessToken);
    expect(decodeProtectedHeader(accessToken)).toEqual({
      alg: 'EdDSA',
      typ: 'at+jwt',
      kid: expect.any(String),
    });
    // docs/decisions.md #8: no scope requested, no scope claim; no user claims.
    expect(Object.keys(payload).sort()).toEqual(['aud', 'client_id', 'exp', 'iat', 'iss', 'jti', 'sub']);
    expect(payload).toMatchObject({
      iss: developers.suite.baseUrl,
      sub: client.clientId,
      client_id: client.clientId,
      aud: client.clientId,
    });
    expect(payload.exp! - payload.iat!).toBe(900);
  });

  it('client_secret_post, with the requested scopes granted', async () => {
    const client = await machine({ ...machineClient, tokenEndpointAuthMethod: 'client_secret_post' });
    const response = await token([
      ['client_id', client.clientId],
      ['client_secret', client.clientSecret!],
      ['scope', 'email profile'],
    ]);
    expect(response).toMatchObject({
      status: 200,
      body: {
        access_token: expect.any(String),
        expires_in: 900,
        token_type: 'Bearer',
        scope: 'email profile',
      },
    });
    expect(response.body).not.toHaveProperty('refresh_token');
    const { payload } = await verifyAtJwks(developers.suite, response.body.access_token as string);
    expect(payload).toMatchObject({
      sub: client.clientId,
      client_id: client.clientId,
      scope: 'email profile',
    });
  });

  it('refuses a scope outside the allow-list with invalid_scope', async () => {
    const client = await machine();
    const response = await token([['scope', 'profile offline_access']], client.basic);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: 'invalid_scope',
      error_description: 'The requested scope is not allowed for this client',
      code: 'INVALID_SCOPE',
      statusCode: 400,
    });
  });

  it('refuses a client without the grant type with unauthorized_client', async () => {
    const client = await newClient(developers.suite, developers.alice.token, webApp);
    const response = await token([], basicAuth(client.clientId, client.clientSecret!));
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: 'unauthorized_client',
      error_description: 'The client may not use client_credentials',
      code: 'UNAUTHORIZED_CLIENT',
      statusCode: 400,
    });
  });
});

describe('resource indicators (RFC 8707, docs/decisions.md #9)', () => {
  it('binds aud to one resource as a string, to several as an array', async () => {
    const client = await machine();
    const one = await token([['resource', 'https://api.example/v1']], client.basic);
    expect(one.status).toBe(200);
    expect((await verifyAtJwks(developers.suite, one.body.access_token as string)).payload.aud).toBe(
      'https://api.example/v1',
    );
    const several = await token(
      [
        ['resource', 'https://api.example/v1'],
        ['resource', 'urn:example:billing'],
      ],
      client.basic,
    );
    expect(several.status).toBe(200);
    expect((await verifyAtJwks(developers.suite, several.body.access_token as string)).payload.aud).toEqual([
      'https://api.example/v1',
      'urn:example:billing',
    ]);
  });

  it('refuses a relative URI or one with a fragment with invalid_target', async () => {
    const client = await machine();
    for (const resource of ['/v1', 'https://api.example/v1#section']) {
      const response = await token([['resource', resource]], client.basic);
      expect({ resource, status: response.status, body: response.body }).toEqual({
        resource,
        status: 400,
        body: {
          error: 'invalid_target',
          error_description: 'resource must be an absolute URI without a fragment',
          code: 'INVALID_TARGET',
          statusCode: 400,
        },
      });
    }
  });

  it('a client with an audience list: aud per interface.md 2.5, resources only from the list', async () => {
    const single = await machine();
    const pair = await machine();
    // The audience list is stored with the client but not settable through the developer API.
    const setAudience = (id: string, audience: string[]) =>
      developers.sql.query(`UPDATE clients.clients SET audience = $2 WHERE id = $1`, [id, audience]);
    await setAudience(single.id, ['https://api.example']);
    await setAudience(pair.id, ['https://api.example', 'urn:example:billing']);
    const audOf = async (response: { body: Record<string, unknown> }) =>
      (await verifyAtJwks(developers.suite, response.body.access_token as string)).payload.aud;

    expect(await audOf(await token([], single.basic))).toBe('https://api.example');
    expect(await audOf(await token([], pair.basic))).toEqual(['https://api.example', 'urn:example:billing']);
    expect(await audOf(await token([['resource', 'urn:example:billing']], pair.basic))).toBe(
      'urn:example:billing',
    );
    const outside = await token([['resource', 'https://other.example']], single.basic);
    expect(outside.status).toBe(400);
    expect(outside.body).toEqual({
      error: 'invalid_target',
      error_description: 'The resource is not an audience of this client',
      code: 'INVALID_TARGET',
      statusCode: 400,
    });
  });
});

describe('self-registered clients name no resource (docs/decisions.md #9, docs/security.md #12)', () => {
  // Open registration (RFC 7591) needs no account: its client may hold client_credentials, but
  // may not have this server sign a token whose aud is someone else's API.
  async function registered() {
    const response = await call<{ client_id: string; client_secret: string }>(
      developers.suite,
      'POST',
      '/oauth/register',
      {
        body: {
          grant_types: ['client_credentials'],
          response_types: [],
          token_endpoint_auth_method: 'client_secret_basic',
        },
      },
    );
    expect(response.status).toBe(201);
    const { client_id: clientId, client_secret: clientSecret } = response.body;
    return { clientId, basic: basicAuth(clientId, clientSecret) };
  }

  it('a dynamically registered client naming a resource is invalid_target', async () => {
    const client = await registered();
    const response = await token([['resource', 'https://victim.example/api']], client.basic);
    expect({ status: response.status, body: response.body }).toEqual({
      status: 400,
      body: {
        error: 'invalid_target',
        error_description: 'A self-registered client may not name a resource',
        code: 'INVALID_TARGET',
        statusCode: 400,
      },
    });
  });

  it('without a resource its token is for itself', async () => {
    const client = await registered();
    const response = await token([], client.basic);
    expect(response.status).toBe(200);
    const { payload } = await verifyAtJwks(developers.suite, response.body.access_token as string);
    expect(payload).toMatchObject({ sub: client.clientId, client_id: client.clientId, aud: client.clientId });
  });

  it("a developer's client still names the resource", async () => {
    const client = await machine();
    const response = await token([['resource', 'https://victim.example/api']], client.basic);
    expect(response.status).toBe(200);
    const { payload } = await verifyAtJwks(developers.suite, response.body.access_token as string);
    expect(payload.aud).toBe('https://victim.example/api');
  });
});

describe('API keys in place of the secret (docs/decisions.md #14, #15)', () => {
  it('work for client_credentials only, and never once revoked', async () => {
    const client = await machine();
    const created = await call<{ id: string; key: string }>(
      developers.suite,
      'POST',
      `/api/clients/${client.id}/api-keys`,
      { token: developers.alice.token, body: { name: 'CI' } },
    );
    expect(created.status).toBe(201);
    const withKey = basicAuth(client.clientId, created.body.key);

    const accepted = await token([['scope', 'email']], withKey);
    expect(accepted).toMatchObject({ status: 200, body: { token_type: 'Bearer', scope: 'email' } });
    const { payload } = await verifyAtJwks(developers.suite, accepted.body.access_token as string);
    expect(payload).toMatchObject({ sub: client.clientId, client_id: client.clientId });

    const otherGrant = await requestToken(
      developers.suite,
      [
        ['grant_type', 'refresh_token'],
        ['refresh_token', 'a'.repeat(64)],
      ],
      withKey,
    );
    expect(otherGrant).toMatchObject({ status: 401, body: INVALID_CLIENT });

    await vi.waitFor(
      async () => {
        const { body } = await call<{ apiKeys: { lastUsedAt: number | null }[] }>(
          developers.suite,
          'GET',
          `/api/clients/${client.id}/api-keys`,
          { token: developers.alice.token },
        );
        expect(body.apiKeys[0]!.lastUsedAt).toEqual(expect.any(Number));
      },
      { timeout: 10_000, interval: 50 },
    );

    const revoked = await call(
      developers.suite,
      'DELETE',
      `/api/clients/${client.id}/api-keys/${created.body.id}`,
      {
        token: developers.alice.token,
      },
    );
    expect(revoked.status).toBe(200);
    const refused = await token([['scope', 'email']], withKey);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual(INVALID_CLIENT);
    // The secret itself still works.
    expect((await token([], client.basic)).status).toBe(200);
  });
});

describe('lastUsedAt (interface.md 2.2: coalesced, not written per request)', () => {
  it('shows up in GET /api/clients/{id} after a successful token request', async () => {
    const client = await machine();
    const path = `/api/clients/${client.id}`;
    const before = await call(developers.suite, 'GET', path, { token: developers.alice.token });
    expect(before.body).toMatchObject({ lastUsedAt: null });
    const issuedAfter = Date.now();
    expect((await token([], client.basic)).status).toBe(200);
    const lastUsedAt = await waitForLastUsedAt(developers.suite, developers.alice.token, path);
    expect(lastUsedAt).toBeGreaterThanOrEqual(issuedAfter);
  });
});

/** Token calls the oauth service ran inside BatchService batches so far (docs/performance.md #11). */
async function batchedCalls(): Promise<number> {
  const { values } = await developers.suite.oauthMetrics.getSingleMetric('grpc_server_batch_calls')!.get();
  return values.find((value) => (value as { metricName?: string }).metricName?.endsWith('_sum'))?.value ?? 0;
}

describe('many token requests at once (docs/performance.md #11)', () => {
  it('travel to oauth in batches, and each request still gets exactly its own answer', async () => {
    const client = await machine();
    const wrongSecret = basicAuth(client.clientId, 'not-the-secret');
    const before = await batchedCalls();
    // Requests the gateway reads in one event-loop turn share one gRPC call; a round whose
    // requests happened to arrive in separate turns is simply repeated.
    for (let round = 0; round < 5 && (await batchedCalls()) === before; round += 1) {
      const scopes = Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? 'profile' : 'email'));
      const responses = await Promise.all(
        scopes.map((scope, index) => token([['scope', scope]], index % 5 === 4 ? wrongSecret : client.basic)),
      );
      for (const [index, response] of responses.entries()) {
        if (index % 5 === 4) {
          expect(response.status).toBe(401);
          expect(response.headers.get('www-authenticate')).toBe('Basic realm="authz"');
          expect(response.body).toEqual(INVALID_CLIENT);
          continue;
        }
        expect(response.status).toBe(200);
        expect(response.body).toEqual({
          access_token: expect.any(String),
          expires_in: 900,
          token_type: 'Bearer',
          scope: scopes[index],
        });
        const { payload } = await verifyAtJwks(developers.suite, response.body.access_token as string);
        expect(payload).toMatchObject({ sub: client.clientId, scope: scopes[index] });
      }
      const jtis = responses
        .filter((response) => response.status === 200)
        .map((response) => decodeJwt(response.body.access_token as string).jti);
      expect(new Set(jtis).size).toBe(16);
    }
    expect(await batchedCalls()).toBeGreaterThan(before);
  });
});
