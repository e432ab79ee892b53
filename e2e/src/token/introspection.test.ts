import { generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, webApp } from '../support/clients.js';
import { useDevelopers } from '../support/use-developers.js';
import {
  INACTIVE,
  introspect,
  startOAuthReplica,
  type FormResponse,
  type OAuthReplica,
} from '../support/token-management.js';
import {
  basicAuth,
  INVALID_CLIENT,
  machineClient,
  newClient,
  requestToken,
  verifyAtJwks,
} from '../support/tokens.js';

// RFC 7662 and interface.md 4.3, 5 end to end: POST /oauth/introspect through the gateway, real gRPC
// services, Postgres and Redis (docs/decisions.md #10, #21; docs/tokens.md #22, #23).
const developers = useDevelopers({ REGISTER_CLIENT_RATE_LIMIT: '1000' });

// A replica minting 2-second tokens, so that one can be seen expiring at the suite's own oauth.
let shortLived: OAuthReplica;
beforeAll(async () => {
  shortLived = await startOAuthReplica(developers.suite, { ACCESS_TOKEN_TTL: '2' });
});
afterAll(() => shortLived?.close());

async function machine(body: Record<string, unknown> = machineClient) {
  const client = await newClient(developers.suite, developers.alice.token, body);
  return { ...client, basic: basicAuth(client.clientId, client.clientSecret!) };
}

async function accessToken(basic: Record<string, string>, scope?: string): Promise<string> {
  const fields: [string, string][] = [['grant_type', 'client_credentials']];
  if (scope) fields.push(['scope', scope]);
  const response = await requestToken(developers.suite, fields, basic);
  expect(response.status).toBe(200);
  return response.body.access_token as string;
}

const introspectAs = (headers: Record<string, string>, token: string) =>
  introspect(developers.suite, [['token', token]], headers);

/** RFC 7662 section 2.2, not cacheable (RFC 6749 section 5.1), and for servers only: no CORS. */
function expectIntrospection(response: FormResponse, body: Record<string, unknown>): void {
  expect({ status: response.status, body: response.body }).toEqual({ status: 200, body });
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.headers.get('pragma')).toBe('no-cache');
  expect(response.headers.get('access-control-allow-origin')).toBeNull();
}

describe('active access tokens', () => {
  it('answer with the token claims, to the client it was issued to', async () => {
    const client = await machine();
    const token = await accessToken(client.basic, 'profile email');
    const { payload } = await verifyAtJwks(developers.suite, token);
    expectIntrospection(await introspectAs(client.basic, token), {
      active: true,
      sub: client.clientId,
      client_id: client.clientId,
      scope: 'profile email',
      aud: client.clientId,
      iss: developers.suite.baseUrl,
      exp: payload.exp,
      iat: payload.iat,
      token_type: 'Bearer',
    });
  });

  it('carry no scope member when the token has none; client_secret_post works too', async () => {
    const client = await machine({ ...machineClient, tokenEndpointAuthMethod: 'client_secret_post' });
    const issued = await requestToken(developers.suite, [
      ['grant_type', 'client_credentials'],
      ['client_id', client.clientId],
      ['client_secret', client.clientSecret!],
    ]);
    expect(issued.status).toBe(200);
    const response = await introspect(developers.suite, [
      ['token', issued.body.access_token as string],
      ['client_id', client.clientId],
      ['client_secret', client.clientSecret!],
    ]);
    expectIntrospection(response, {
      active: true,
      sub: client.clientId,
      client_id: client.clientId,
      aud: client.clientId,
      iss: developers.suite.baseUrl,
      exp: expect.any(Number),
      iat: expect.any(Number),
      token_type: 'Bearer',
    });
  });
});

describe('audience (docs/decisions.md #10)', () => {
  it('a caller named in aud sees the token active; any other client sees { active: false }', async () => {
    const resourceServer = await machine();
    const issuing = await machine();
    const stranger = await newClient(developers.suite, developers.bob.token);
    // Not settable through the developer API; set before the client first authenticates.
    await developers.sql.query(`UPDATE clients.clients SET audience = $2 WHERE id = $1`, [
      issuing.id,
      [resourceServer.clientId, 'https://api.example'],
    ]);
    const token = await accessToken(issuing.basic);
    const active = await introspectAs(resourceServer.basic, token);
    expectIntrospection(active, {
      active: true,
      sub: issuing.clientId,
      client_id: issuing.clientId,
      aud: [resourceServer.clientId, 'https://api.example'],
      iss: developers.suite.baseUrl,
      exp: expect.any(Number),
      iat: expect.any(Number),
      token_type: 'Bearer',
    });
    expect((await introspectAs(issuing.basic, token)).body).toEqual(active.body);
    expectIntrospection(
      await introspectAs(basicAuth(stranger.clientId, stranger.clientSecret!), token),
      INACTIVE,
    );
  });

  it('first-party tokens are nobody else’s: login access and refresh tokens are inactive to a client', async () => {
    const client = await machine();
    for (const [token, hint] of [
      [developers.alice.token, 'access_token'],
      [developers.alice.refreshToken, 'refresh_token'],
      [developers.alice.refreshToken, 'access_token'],
    ] as const) {
      const response = await introspect(
        developers.suite,
        [
          ['token', token],
          ['token_type_hint', hint],
        ],
        client.basic,
      );
      expectIntrospection(response, INACTIVE);
    }
  });
});

describe('inactive tokens: exactly { active: false }', () => {
  it('expired', async () => {
    const client = await machine();
    const { tokens } = await shortLived.tokens.token({
      parameters: [{ name: 'grant_type', value: 'client_credentials' }],
      basic: { clientId: client.clientId, clientSecret: client.clientSecret! },
    });
    const token = tokens!.accessToken;
    expect((await introspectAs(client.basic, token)).body).toMatchObject({ active: true });
    await vi.waitFor(async () => expectIntrospection(await introspectAs(client.basic, token), INACTIVE), {
      timeout: 5_000,
      interval: 200,
    });
  });

  it('unknown, garbage, and signed by someone else', async () => {
    const client = await machine();
    const { privateKey } = await generateKeyPair('EdDSA');
    const forged = await new SignJWT({ client_id: client.clientId })
      .setProtectedHeader({ alg: 'EdDSA', typ: 'at+jwt', kid: 'forged' })
      .setIssuer(developers.suite.baseUrl)
      .setSubject(client.clientId)
      .setAudience(client.clientId)
      .setIssuedAt()
      .setExpirationTime('5m')
      .setJti('forged')
      .sign(privateKey);
    for (const token of ['0'.repeat(64), 'garbage', 'a.b.c', forged]) {
      expectIntrospection(await introspectAs(client.basic, token), INACTIVE);
    }
  });
});

describe('refusals', () => {
  it('a missing token is invalid_request, with a description', async () => {
    const client = await machine();
    const response = await introspect(developers.suite, [['token_type_hint', 'access_token']], client.basic);
    expect({ status: response.status, body: response.body }).toEqual({
      status: 400,
      body: {
        error: 'invalid_request',
        error_description: 'token is required',
        code: 'INVALID_REQUEST',
        statusCode: 400,
      },
    });
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('a failed Basic authentication is a bare 401 with a Basic challenge', async () => {
    const client = await machine();
    const token = await accessToken(client.basic);
    const response = await introspectAs(basicAuth(client.clientId, 'f'.repeat(64)), token);
    expect({ status: response.status, body: response.body }).toEqual({ status: 401, body: INVALID_CLIENT });
    expect(response.headers.get('www-authenticate')).toBe('Basic realm="authz"');
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('public clients, the first-party one included, cannot introspect (interface.md 5)', async () => {
    const client = await machine();
    const token = await accessToken(client.basic);
    const publicClient = await newClient(developers.suite, developers.alice.token, {
      ...webApp,
      tokenEndpointAuthMethod: 'none',
    });
    for (const clientId of [publicClient.clientId, 'authz-first-party']) {
      const response = await introspect(developers.suite, [
        ['token', token],
        ['client_id', clientId],
      ]);
      expect({ clientId, status: response.status, body: response.body }).toEqual({
        clientId,
        status: 401,
        body: INVALID_CLIENT,
      });
      expect(response.headers.get('www-authenticate')).toBeNull();
    }
  });

  it('an API key does not stand in for the secret here (docs/decisions.md #15)', async () => {
    const client = await machine();
    const token = await accessToken(client.basic);
    const created = await call<{ key: string }>(
      developers.suite,
      'POST',
      `/api/clients/${client.id}/api-keys`,
      {
        token: developers.alice.token,
        body: { name: 'CI' },
      },
    );
    expect(created.status).toBe(201);
    const response = await introspectAs(basicAuth(client.clientId, created.body.key), token);
    expect({ status: response.status, body: response.body }).toEqual({ status: 401, body: INVALID_CLIENT });
    expect(response.headers.get('www-authenticate')).toBe('Basic realm="authz"');
  });
});
