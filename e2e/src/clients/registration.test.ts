import { randomBytes } from 'node:crypto';
import { keyedHash } from '@authz/shared/crypto';
import { openTestPool } from '@authz/shared/testing';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSuite } from '../support/use-suite.js';
import { call, REDIRECT_URI_MESSAGE } from '../support/clients.js';
import { postForm } from '../support/http.js';

// RFC 7591 dynamic registration, open mode (interface.md 4.3, 5, 8), end to end through the gateway.
// The budget shared with the developer API has its own file (registration-rate-limit.test.ts).
const secretHashKey = randomBytes(32);
const context = useSuite({
  serviceEnv: { SECRET_HASH_KEY: secretHashKey.toString('hex') },
  gatewayEnv: { REGISTER_CLIENT_RATE_LIMIT: '1000' },
});
let sql: pg.Pool;

beforeAll(() => {
  sql = openTestPool(context.databaseUrl, 2);
});
afterAll(() => sql?.end());

const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function register(body: unknown) {
  return call<Record<string, unknown>>(context.suite, 'POST', '/oauth/register', { body });
}

async function storedRow(clientId: unknown) {
  const { rows } = await sql.query(
    `SELECT secret_hash, source, developer_id, realm_id, is_agent, scopes, environment, name
       FROM clients.clients WHERE client_id = $1`,
    [clientId],
  );
  return rows[0] as Record<string, unknown>;
}

function oauthError(error: string, description: string) {
  return { error, error_description: description, code: error.toUpperCase(), statusCode: 400 };
}

describe('POST /oauth/register', () => {
  it('registers a confidential client with the RFC 7591 defaults; only the secret hash is stored', async () => {
    const before = Math.floor(Date.now() / 1000);
    const response = await register({
      redirect_uris: ['https://app.example/cb'],
      client_name: 'Agent app',
      scope: 'openid email',
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.body).toEqual({
      client_id: expect.stringMatching(UUID),
      client_secret: expect.stringMatching(/^[0-9a-f]{64}$/),
      client_secret_expires_at: 0,
      client_id_issued_at: expect.any(Number),
      redirect_uris: ['https://app.example/cb'],
      token_endpoint_auth_method: 'client_secret_basic',
      grant_types: ['authorization_code'],
      response_types: ['code'],
      client_name: 'Agent app',
      scope: 'openid email',
      is_agent: false,
    });
    expect(response.body.client_id_issued_at).toBeGreaterThanOrEqual(before);
    expect(response.body.client_id_issued_at).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
    expect(await storedRow(response.body.client_id)).toEqual({
      secret_hash: keyedHash(secretHashKey, response.body.client_secret as string),
      source: 'dynamic',
      developer_id: null,
      realm_id: null,
      is_agent: false,
      scopes: ['openid', 'email'],
      environment: 'development',
      name: 'Agent app',
    });
  });

  it('registers a public agent with token exchange, the whole scope cap, unknown members ignored', async () => {
    const response = await register({
      redirect_uris: ['http://127.0.0.1:7000/cb'],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token', TOKEN_EXCHANGE],
      is_agent: true,
      software_id: 'ignored',
      logo_uri: 'https://app.example/logo.png',
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      client_id: expect.stringMatching(UUID),
      client_id_issued_at: expect.any(Number),
      redirect_uris: ['http://127.0.0.1:7000/cb'],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token', TOKEN_EXCHANGE],
      response_types: ['code'],
      scope: 'openid profile email',
      is_agent: true,
    });
    expect(await storedRow(response.body.client_id)).toMatchObject({
      secret_hash: null,
      is_agent: true,
      name: response.body.client_id,
    });
  });

  it('narrows requested scopes to DEFAULT_DYNAMIC_REGISTRATION_SCOPES', async () => {
    const base = { redirect_uris: ['https://app.example/cb'], token_endpoint_auth_method: 'none' };
    const narrowed = await register({ ...base, scope: 'admin openid offline_access email openid' });
    expect(narrowed.status).toBe(201);
    expect(narrowed.body.scope).toBe('openid email');
    const emptied = await register({ ...base, scope: 'admin offline_access' });
    expect(emptied.status).toBe(201);
    expect(emptied.body).not.toHaveProperty('scope');
    expect((await storedRow(emptied.body.client_id)).scopes).toEqual([]);
  });

  // RFC 7591 section 3.2.1: client_secret (and its expiry) only for a client that uses one.
  it.each([
    ['jwks', { jwks: { keys: [{ kty: 'OKP', crv: 'Ed25519', x: 'x-value' }] } }],
    ['jwks_uri', { jwks_uri: 'https://keys.example/jwks' }],
  ])('registers a private_key_jwt machine client with %s and issues it no secret', async (_name, keys) => {
    const response = await register({
      token_endpoint_auth_method: 'private_key_jwt',
      grant_types: ['client_credentials'],
      response_types: [],
      ...keys,
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      client_id: expect.stringMatching(UUID),
      client_id_issued_at: expect.any(Number),
      redirect_uris: [],
      token_endpoint_auth_method: 'private_key_jwt',
      grant_types: ['client_credentials'],
      response_types: [],
      scope: 'openid profile email',
      is_agent: false,
      ...keys,
    });
    expect(await storedRow(response.body.client_id)).toMatchObject({ secret_hash: null });

    // docs/clients.md #10: only the registered method authenticates; a secret is never one.
    const basic = Buffer.from(`${String(response.body.client_id)}:${'0'.repeat(64)}`).toString('base64');
    const token = await postForm(
      context.url('/oauth/token'),
      { grant_type: 'client_credentials' },
      { authorization: `Basic ${basic}` },
    );
    expect(token.status).toBe(401);
    expect(token.body).toEqual({ error: 'invalid_client', code: 'INVALID_CLIENT', statusCode: 401 });
  });

  it.each([
    [
      'a bad redirect URI',
      { redirect_uris: ['http://app.example/cb'] },
      oauthError('invalid_redirect_uri', `redirect_uris[0]: ${REDIRECT_URI_MESSAGE}`),
    ],
    [
      'no redirect URI for authorization_code',
      {},
      oauthError(
        'invalid_redirect_uri',
        'redirect_uris: at least one is required for authorization_code or refresh_token',
      ),
    ],
    [
      'redirect_uris of the wrong type',
      { redirect_uris: 'https://app.example/cb' },
      oauthError('invalid_redirect_uri', 'redirect_uris must be an array of strings'),
    ],
    [
      'an unknown grant type',
      { redirect_uris: ['https://app.example/cb'], grant_types: ['authorization_code', 'password'] },
      oauthError(
        'invalid_client_metadata',
        `grant_types: must be among authorization_code, refresh_token, client_credentials, urn:ietf:params:oauth:grant-type:device_code, ${TOKEN_EXCHANGE}`,
      ),
    ],
    [
      'client_credentials for a public client',
      { token_endpoint_auth_method: 'none', grant_types: ['client_credentials'], response_types: [] },
      oauthError(
        'invalid_client_metadata',
        'grant_types: client_credentials requires a confidential token_endpoint_auth_method',
      ),
    ],
    [
      'private_key_jwt without keys',
      { redirect_uris: ['https://app.example/cb'], token_endpoint_auth_method: 'private_key_jwt' },
      oauthError('invalid_client_metadata', 'jwks: jwks or jwks_uri is required for private_key_jwt'),
    ],
    [
      'an unknown auth method and a bad response type',
      {
        redirect_uris: ['https://app.example/cb'],
        token_endpoint_auth_method: 'tls_client_auth',
        response_types: ['token'],
      },
      oauthError(
        'invalid_client_metadata',
        'response_types: only code is supported; token_endpoint_auth_method: must be one of none, client_secret_post, client_secret_basic, private_key_jwt',
      ),
    ],
    [
      'is_agent that is not a boolean',
      { redirect_uris: ['https://app.example/cb'], is_agent: 'yes' },
      oauthError('invalid_client_metadata', 'is_agent must be a boolean'),
    ],
    [
      'scope that is not a string',
      { redirect_uris: ['https://app.example/cb'], scope: ['openid'] },
      oauthError('invalid_client_metadata', 'scope must be a string'),
    ],
    [
      'a body that is not an object',
      ['https://app.example/cb'],
      oauthError('invalid_client_metadata', 'the request body must be a JSON object'),
    ],
  ])('refuses %s with the RFC 7591 error body', async (_name, body, expected) => {
    const response = await register(body);
    expect(response.status).toBe(400);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.body).toEqual(expected);
  });
});
