import { keyedHash } from '@authz/shared/crypto';
import * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import {
  authorizationParameters,
  completeAuthorization,
  newAppClient,
  newPkce,
  newUser,
  REDIRECT_URI,
  useCodeFlow,
  type AppClient,
} from '../support/code-flow.js';
import { basicAuth, INVALID_CLIENT, type FormField } from '../support/tokens.js';
import { FormBrowser, type BrowserResponse } from '@authz/shared/testing/form-browser';

/** RFC 9126 pushed authorization requests (interface.md 4.12). */
const flow = useCodeFlow();
const REQUEST_URI = /^urn:ietf:params:oauth:request_uri:([A-Za-z0-9_-]{43})$/;

async function push(client: AppClient, fields: FormField[], headers?: Record<string, string>) {
  const response = await fetch(`${flow.suite.baseUrl}/oauth/par`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(headers ?? (client.confidential ? basicAuth(client.clientId, client.clientSecret!) : {})),
    },
    body: new URLSearchParams(fields),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}

const authorizeWith = (clientId: string, requestUri: string, extra: Record<string, string> = {}) =>
  `${flow.suite.baseUrl}/oauth/authorize?${new URLSearchParams({ client_id: clientId, request_uri: requestUri, ...extra })}`;

function expectErrorPage(response: BrowserResponse, error: string, description: string): void {
  expect(response.status).toBe(400);
  expect(response.location).toBeUndefined();
  expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(response.text).toContain(error);
  expect(response.text).toContain(description);
}

/** The Redis key of a request URI: a keyed hash of its random part (docs/par-and-dpop.md #2). */
function storedKey(requestUri: string): string {
  const handle = REQUEST_URI.exec(requestUri)![1]!;
  const secret = Buffer.from(flow.suite.oauthEnv.SECRET_HASH_KEY!, 'hex');
  return `oauth:pushed-authorization:${keyedHash(secret, handle)}`;
}

describe('POST /oauth/par (RFC 9126 section 2)', () => {
  it('runs a whole code flow through openid-client with a pushed request', async () => {
    const client = await newAppClient(flow);
    const user = await newUser(flow, { verified: true });
    const config = await oidc.discovery(
      new URL(flow.suite.baseUrl),
      client.clientId,
      { id_token_signed_response_alg: 'EdDSA' },
      oidc.ClientSecretBasic(client.clientSecret!),
      { execute: [oidc.allowInsecureRequests] },
    );
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = await oidc.buildAuthorizationUrlWithPAR(config, {
      redirect_uri: REDIRECT_URI,
      scope: 'openid email',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    expect([...url.searchParams.keys()].sort()).toEqual(['client_id', 'request_uri']);
    expect(url.searchParams.get('request_uri')).toMatch(REQUEST_URI);

    const result = await completeAuthorization(
      flow,
      new FormBrowser(),
      user,
      { client },
      { startUrl: url.href },
    );
    expect(result.prompts).toEqual(['login', 'consent']);
    const tokens = await oidc.authorizationCodeGrant(config, result.callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
    });
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.claims()).toMatchObject({ sub: user.id, nonce });
    const info = await oidc.fetchUserInfo(config, tokens.access_token, user.id);
    expect(info).toEqual({ sub: user.id, email: user.email, email_verified: true });
  });

  it('answers 201 with a request URI living 60 s, stored under a hash of its random part', async () => {
    const client = await newAppClient(flow);
    const pushed = await push(client, authorizationParameters({ client }));
    expect(pushed.status).toBe(201);
    expect(pushed.body).toEqual({ request_uri: expect.stringMatching(REQUEST_URI), expires_in: 60 });
    expect(pushed.headers.get('cache-control')).toBe('no-store');
    const ttl = await flow.redis.ttl(`${flow.redisPrefix}${storedKey(pushed.body.request_uri as string)}`);
    expect(ttl).toBeGreaterThan(50);
    expect(ttl).toBeLessThanOrEqual(60);
    const [stored] = await flow.redis.keys(`${flow.redisPrefix}oauth:pushed-authorization:*`);
    expect(stored).not.toContain(REQUEST_URI.exec(pushed.body.request_uri as string)![1]);
  });

  it('uses a request URI once, ignoring what else the query says (section 4)', async () => {
    const client = await newAppClient(flow);
    const user = await newUser(flow, { verified: true });
    const pkce = newPkce();
    const pushed = await push(client, authorizationParameters({ client, pkce, state: 'pushed-state' }));
    const requestUri = pushed.body.request_uri as string;
    const browser = new FormBrowser();
    const url = authorizeWith(client.clientId, requestUri, {
      state: 'query-state',
      redirect_uri: 'https://elsewhere.example/cb',
      scope: 'openid profile',
    });
    const result = await completeAuthorization(flow, browser, user, { client }, { startUrl: url });
    expect(result.callback.origin + result.callback.pathname).toBe(REDIRECT_URI);
    expect(result.query.state).toBe('pushed-state');

    const again = await browser.get(authorizeWith(client.clientId, requestUri));
    expectErrorPage(again, 'invalid_request_uri', 'The request_uri is unknown, expired or already used');
  });

  it('refuses an expired request URI', async () => {
    const client = await newAppClient(flow);
    const pushed = await push(client, authorizationParameters({ client }));
    const requestUri = pushed.body.request_uri as string;
    // Its 60 s elapse: Redis expires the key.
    await flow.redis.pexpire(`${flow.redisPrefix}${storedKey(requestUri)}`, 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const answer = await new FormBrowser().get(authorizeWith(client.clientId, requestUri));
    expectErrorPage(answer, 'invalid_request_uri', 'The request_uri is unknown, expired or already used');
  });

  it('refuses a request URI presented with another client_id, and without one', async () => {
    const client = await newAppClient(flow);
    const other = await newAppClient(flow);
    const first = await push(client, authorizationParameters({ client }));
    const browser = new FormBrowser();
    const answer = await browser.get(authorizeWith(other.clientId, first.body.request_uri as string));
    expectErrorPage(answer, 'invalid_request_uri', 'The request_uri was not issued to this client');
    const second = await push(client, authorizationParameters({ client }));
    const url = `${flow.suite.baseUrl}/oauth/authorize?${new URLSearchParams({ request_uri: second.body.request_uri as string })}`;
    expectErrorPage(await browser.get(url), 'invalid_request', 'client_id is required with request_uri');
  });

  it('authenticates public clients by client_id and refuses bad credentials as the token endpoint does', async () => {
    const spa = await newAppClient(flow, { tokenEndpointAuthMethod: 'none' });
    const accepted = await push(spa, authorizationParameters({ client: spa }));
    expect(accepted.status).toBe(201);

    const client = await newAppClient(flow);
    const refused = await push(
      client,
      authorizationParameters({ client }),
      basicAuth(client.clientId, 'wrong'),
    );
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual(INVALID_CLIENT);
    expect(refused.headers.get('www-authenticate')).toBe('Basic realm="authz"');
  });

  const invalid: [string, (client: AppClient) => FormField[], string][] = [
    [
      'an unregistered redirect_uri',
      (client) => [
        ...authorizationParameters({ client }).filter(([name]) => name !== 'redirect_uri'),
        ['redirect_uri', 'https://evil.example/cb'],
      ],
      'redirect_uri is not registered for this client',
    ],
    [
      'no PKCE challenge',
      (client) => authorizationParameters({ client }).filter(([name]) => !name.startsWith('code_challenge')),
      'code_challenge is required',
    ],
    [
      'a request_uri',
      (client) => [
        ...authorizationParameters({ client }),
        ['request_uri', 'urn:ietf:params:oauth:request_uri:x'],
      ],
      'request_uri may not be pushed',
    ],
    [
      'a malformed dpop_jkt',
      (client) => [...authorizationParameters({ client }), ['dpop_jkt', 'short']],
      'dpop_jkt must be a base64url SHA-256 JWK thumbprint',
    ],
  ];

  it.each(invalid)(
    'validates at push time as /oauth/authorize does: %s is invalid_request',
    async (_name, fields, description) => {
      const client = await newAppClient(flow);
      const answer = await push(client, fields(client));
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({
        error: 'invalid_request',
        error_description: description,
        code: 'INVALID_REQUEST',
        statusCode: 400,
      });
      expect(answer.headers.get('cache-control')).toBe('no-store');
    },
  );

  it('refuses a scope the client may not ask for with invalid_scope', async () => {
    const client = await newAppClient(flow, { scopes: ['openid'] });
    const answer = await push(client, authorizationParameters({ client, scope: 'openid email' }));
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: 'invalid_scope', code: 'INVALID_SCOPE', statusCode: 400 });
  });
});

describe('requirePushedAuthorizationRequests (RFC 9126 section 6)', () => {
  it('refuses a client that requires PAR an authorization request that was not pushed', async () => {
    const client = await newAppClient(flow, { requirePushedAuthorizationRequests: true });
    expect(client.requirePushedAuthorizationRequests).toBe(true);
    const pkce = newPkce();
    const plain = authorizationParameters({ client, pkce });
    const answer = await new FormBrowser().get(
      `${flow.suite.baseUrl}/oauth/authorize?${new URLSearchParams(plain)}`,
    );
    expect(answer.status).toBe(302);
    const callback = new URL(answer.location!);
    expect(Object.fromEntries(callback.searchParams)).toEqual({
      error: 'invalid_request',
      error_description: 'Pushed authorization requests are required: push the request to /oauth/par first',
      state: 'af0ifjsldkj',
      iss: flow.suite.baseUrl,
    });
    const pushed = await push(client, plain);
    expect(pushed.status).toBe(201);
    const started = await new FormBrowser().get(
      authorizeWith(client.clientId, pushed.body.request_uri as string),
    );
    expect(started.status).toBe(302);
    expect(started.location).toMatch(new RegExp(`^${flow.suite.baseUrl}/ui/login\\?`));
  });

  it('takes require_pushed_authorization_requests at dynamic registration and echoes it', async () => {
    const response = await fetch(`${flow.suite.baseUrl}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        redirect_uris: [REDIRECT_URI],
        token_endpoint_auth_method: 'none',
        require_pushed_authorization_requests: true,
        dpop_bound_access_tokens: true,
      }),
    });
    expect(response.status).toBe(201);
    const registered = (await response.json()) as Record<string, unknown>;
    expect(registered).toMatchObject({
      require_pushed_authorization_requests: true,
      dpop_bound_access_tokens: true,
    });
    const client = { clientId: registered.client_id as string, confidential: false } as AppClient;
    const answer = await new FormBrowser().get(
      `${flow.suite.baseUrl}/oauth/authorize?${new URLSearchParams(authorizationParameters({ client }))}`,
    );
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('Pushed authorization requests are required');
  });

  it('refuses a registration member of the wrong type', async () => {
    const response = await fetch(`${flow.suite.baseUrl}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [REDIRECT_URI], require_pushed_authorization_requests: 'yes' }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'invalid_client_metadata',
      error_description: 'require_pushed_authorization_requests must be a boolean',
      code: 'INVALID_CLIENT_METADATA',
      statusCode: 400,
    });
  });
});
