import { processDiscoveryResponse } from 'oauth4webapi';
import { describe, expect, it } from 'vitest';
import { metricValue } from '../support/metrics.js';
import { useSuite } from '../support/use-suite.js';
import { JWKS_CACHE_MS } from '@authz/gateway';

// interface.md 4.4 through the gateway: RFC 8414 and OIDC Discovery documents, the JWKS, CORS.
const context = useSuite();

const ASSERTION_ALGORITHMS = [
  'EdDSA',
  'ES256',
  'ES384',
  'PS256',
  'PS384',
  'PS512',
  'RS256',
  'RS384',
  'RS512',
];

function expectedServerMetadata(issuer: string) {
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    jwks_uri: `${issuer}/.well-known/jwks.json`,
    registration_endpoint: `${issuer}/oauth/register`,
    scopes_supported: ['openid', 'profile', 'email', 'offline_access'],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: expect.arrayContaining([
      'refresh_token',
      'client_credentials',
      'urn:ietf:params:oauth:grant-type:device_code',
    ]),
    token_endpoint_auth_methods_supported: [
      'client_secret_basic',
      'client_secret_post',
      'none',
      'private_key_jwt',
    ],
    token_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGORITHMS,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    introspection_endpoint: `${issuer}/oauth/introspect`,
    introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    resource_indicators_supported: true,
    // interface.md 4.12: RFC 9126 and RFC 9449.
    pushed_authorization_request_endpoint: `${issuer}/oauth/par`,
    require_pushed_authorization_requests: false,
    dpop_signing_alg_values_supported: ['EdDSA', 'Ed25519', 'ES256', 'RS256', 'PS256'],
    // RFC 8628 section 4 (interface.md 4.13).
    device_authorization_endpoint: `${issuer}/oauth/device_authorization`,
  };
}

describe('discovery documents', () => {
  it('serves RFC 8414 metadata with every statement of interface.md 4.4, cacheable for an hour', async () => {
    const response = await fetch(context.url('/.well-known/oauth-authorization-server'));
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = (await response.json()) as { grant_types_supported: string[] };
    expect(body).toEqual(expectedServerMetadata(context.suite.baseUrl));
    // Feature-gated entries are absent while their flag is off.
    expect(body).not.toHaveProperty('client_id_metadata_document_supported');
    expect(body).not.toHaveProperty('authorization_grant_profiles_supported');
    expect(body.grant_types_supported).not.toContain('urn:ietf:params:oauth:grant-type:jwt-bearer');
  });

  it('serves the OpenID configuration as a superset', async () => {
    const response = await fetch(context.url('/.well-known/openid-configuration'));
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
    const issuer = context.suite.baseUrl;
    expect(await response.json()).toEqual({
      ...expectedServerMetadata(issuer),
      userinfo_endpoint: `${issuer}/oauth/userinfo`,
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['EdDSA', 'RS256'],
      claims_supported: [
        'sub',
        'iss',
        'aud',
        'exp',
        'iat',
        'auth_time',
        'sid',
        'nonce',
        'name',
        'email',
        'email_verified',
        'acr',
        'amr',
      ],
      acr_values_supported: ['urn:authz:acr:password', 'urn:authz:acr:mfa'],
      prompt_values_supported: ['none', 'login', 'consent'],
      // OIDC Discovery 3: request_uri_parameter_supported defaults to true, so all are stated.
      claims_parameter_supported: false,
      request_parameter_supported: false,
      request_uri_parameter_supported: false,
      // interface.md 4.3.
      end_session_endpoint: `${issuer}/oauth/logout`,
      backchannel_logout_supported: true,
      backchannel_logout_session_supported: true,
      frontchannel_logout_supported: false,
    });
  });

  it('validates with oauth4webapi as an OAuth 2 and an OpenID Connect document', async () => {
    const issuer = new URL(context.suite.baseUrl);
    const oauth = await processDiscoveryResponse(
      issuer,
      await fetch(context.url('/.well-known/oauth-authorization-server')),
    );
    expect(oauth.issuer).toBe(context.suite.baseUrl);
    const oidc = await processDiscoveryResponse(
      issuer,
      await fetch(context.url('/.well-known/openid-configuration')),
    );
    expect(oidc.userinfo_endpoint).toBe(`${context.suite.baseUrl}/oauth/userinfo`);
  });
});

describe('the JWKS, served from the gateway', () => {
  /** GetJwks calls the oauth service has answered so far. */
  const jwksCalls = async () =>
    metricValue(await context.suite.oauthMetrics.metrics(), 'grpc_server_handling_seconds_count', {
      grpc_method: 'GetJwks',
      grpc_code: 'OK',
    });
  const jwks = async () => (await fetch(context.url('/.well-known/jwks.json'))).json();

  it(`asks oauth at most once per ${JWKS_CACHE_MS} ms, however many callers (docs/tokens.md #8)`, async () => {
    await new Promise((resolve) => setTimeout(resolve, JWKS_CACHE_MS + 50));
    const before = await jwksCalls();
    const startedAt = Date.now();
    const bodies = await Promise.all(Array.from({ length: 10 }, jwks));
    for (let again = 0; again < 3; again += 1) bodies.push(await jwks());
    // One call, and one more per cache lifetime the thirteen requests outlasted (a slow machine).
    const lifetimes = Math.floor((Date.now() - startedAt) / JWKS_CACHE_MS);
    const calls = (await jwksCalls()) - before;
    expect(calls).toBeGreaterThanOrEqual(1);
    expect(calls).toBeLessThanOrEqual(1 + lifetimes);
    expect(new Set(bodies.map((body) => JSON.stringify(body))).size).toBe(1);
    // docs/tokens.md #34: the Ed25519 key and the RSA key of RS256 ID tokens.
    expect(bodies[0]).toEqual({
      keys: expect.arrayContaining([
        expect.objectContaining({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA' }),
        expect.objectContaining({ kty: 'RSA', alg: 'RS256' }),
      ]),
    });
    expect((bodies[0] as { keys: unknown[] }).keys).toHaveLength(2);

    // Once the copy is older than that, the next caller gets the set oauth publishes now.
    await new Promise((resolve) => setTimeout(resolve, JWKS_CACHE_MS + 50));
    await jwks();
    expect(await jwksCalls()).toBe(before + 2);
  });
});

describe('CORS for browser-based clients', () => {
  for (const path of [
    '/.well-known/oauth-authorization-server',
    '/.well-known/openid-configuration',
    '/.well-known/jwks.json',
  ]) {
    it(`lets any origin read ${path}, without credentials`, async () => {
      const response = await fetch(context.url(path), { headers: { origin: 'https://spa.example' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
      expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');

      const preflight = await fetch(context.url(path), {
        method: 'OPTIONS',
        headers: { origin: 'https://spa.example', 'access-control-request-method': 'GET' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
      expect(preflight.headers.get('access-control-allow-methods')).toBe('GET');
      expect(preflight.headers.get('access-control-max-age')).toBe('86400');
    });
  }

  it('opens no cookie-authenticated or developer route cross-origin', async () => {
    const response = await fetch(context.url('/api/clients/'), {
      headers: { origin: 'https://spa.example' },
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('RFC 9728 protected-resource metadata', () => {
  it('describes the server’s own Bearer APIs and is named by their challenges', async () => {
    const issuer = context.suite.baseUrl;
    const response = await fetch(context.url('/.well-known/oauth-protected-resource'));
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.json()).toEqual({
      resource: issuer,
      authorization_servers: [issuer],
      jwks_uri: `${issuer}/.well-known/jwks.json`,
      scopes_supported: ['openid', 'profile', 'email'],
      bearer_methods_supported: ['header', 'body'],
      resource_signing_alg_values_supported: ['EdDSA'],
      resource_name: 'Account, developer and UserInfo APIs',
      dpop_signing_alg_values_supported: ['EdDSA', 'Ed25519', 'ES256', 'RS256', 'PS256'],
      dpop_bound_access_tokens_required: false,
    });
    const unauthenticated = await fetch(context.url('/api/clients/'));
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('www-authenticate')).toBe(
      `Bearer realm="authz", resource_metadata="${issuer}/.well-known/oauth-protected-resource"`,
    );
  });
});

describe('CORS on the token endpoint', () => {
  it('answers the preflight and lets the browser read successes and errors alike', async () => {
    const preflight = await fetch(context.url('/oauth/token'), {
      method: 'OPTIONS',
      headers: {
        origin: 'https://spa.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toBe('POST');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type, DPoP');

    const refused = await fetch(context.url('/oauth/token'), {
      method: 'POST',
      headers: { origin: 'https://spa.example', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=refresh_token&client_id=nobody&refresh_token=x',
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    expect(refused.headers.get('access-control-expose-headers')).toBe(
      'WWW-Authenticate, Retry-After, X-Request-Id, DPoP-Nonce',
    );
    expect(refused.headers.get('cache-control')).toBe('no-store');
    expect(refused.headers.get('pragma')).toBe('no-cache');
    expect(await refused.json()).toEqual({
      error: 'invalid_client',
      code: 'INVALID_CLIENT',
      statusCode: 401,
    });
  });
});
