import type { AuthorizationError } from '@authz/proto/oauth/v1/oauth';
import { useTestEnvironment } from '@authz/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizeFields, CodeFlow, handleOf, ISSUER, pkcePair, redirectOf } from '../../test/code-flow.js';
import { FakeClients, type FakeClient } from '../../test/fake-clients.js';
import { FakeIdentity } from '@authz/shared/testing/fake-identity';
import { oauthTestSource, startOAuth, type RunningOAuth } from '../../test/oauth-harness.js';

// interface.md 4.3 /oauth/authorize: the ordered checks (docs/authorization.md #1-#6).
const environment = useTestEnvironment();
const { challenge } = pkcePair();
const ISS = encodeURIComponent(ISSUER);

let identity: FakeIdentity;
let clients: FakeClients;
let oauth: RunningOAuth;
let flow: CodeFlow;
let web: FakeClient;
let single: FakeClient;
let native: FakeClient;
let machine: FakeClient;
let api: FakeClient;

beforeAll(async () => {
  identity = new FakeIdentity();
  clients = new FakeClients();
  const user = { method: 'client_secret_basic' as const, secret: 's', grantTypes: ['authorization_code'] };
  web = clients.addClient({
    ...user,
    grantTypes: ['authorization_code', 'refresh_token'],
    scopes: ['openid', 'email', 'profile'],
    redirectUris: ['https://app.example/cb', 'https://app.example/other?tenant=a%20b'],
  });
  single = clients.addClient({ ...user, scopes: ['openid'], redirectUris: ['https://single.example/cb'] });
  native = clients.addClient({ ...user, method: 'none', redirectUris: ['http://127.0.0.1/callback'] });
  machine = clients.addClient({
    ...user,
    grantTypes: ['client_credentials'],
    redirectUris: ['https://machine.example/cb'],
  });
  api = clients.addClient({
    ...user,
    audience: ['https://api.example'],
    redirectUris: ['https://api-app.example/cb'],
  });
  oauth = await startOAuth(oauthTestSource(environment, await identity.start(), await clients.start()));
  flow = new CodeFlow(oauth, identity);
});

afterAll(async () => {
  await oauth?.close();
  await identity?.close();
  await clients?.close();
});

async function errorPageOf(fields: [string, string][]): Promise<AuthorizationError | undefined> {
  const { outcome } = await flow.authorize(fields);
  expect(outcome?.next.case).toBe('errorPage');
  return outcome?.next.case === 'errorPage' ? outcome.next.value : undefined;
}

async function redirectTo(fields: [string, string][]): Promise<string> {
  const { outcome } = await flow.authorize(fields);
  expect(outcome?.next.case).toBe('redirectTo');
  return outcome?.next.value as string;
}

describe('Authorize: an untrusted client or redirect URI gets an error page, never a redirect', () => {
  it('refuses a missing, unknown or disabled client as invalid_client', async () => {
    const disabled = clients.addClient({ ...web, clientId: 'disabled-client', enabled: false });
    const cases: [Record<string, string | undefined>, string][] = [
      [{ client_id: undefined }, 'client_id is required'],
      [{ client_id: 'no-such-client' }, 'Unknown or disabled client'],
      [{ client_id: disabled.clientId }, 'Unknown or disabled client'],
    ];
    for (const [overrides, description] of cases) {
      expect(await errorPageOf(authorizeFields(web, challenge, overrides))).toMatchObject({
        error: 'invalid_client',
        errorDescription: description,
      });
    }
  });

  it('refuses client_id or redirect_uri sent twice', async () => {
    for (const name of ['client_id', 'redirect_uri']) {
      const fields = authorizeFields(web, challenge);
      const again = fields.find(([field]) => field === name)!;
      expect(await errorPageOf([...fields, again])).toMatchObject({
        error: 'invalid_request',
        errorDescription: `${name} was sent more than once`,
      });
    }
  });

  it('requires redirect_uri unless exactly one is registered', async () => {
    expect(await errorPageOf(authorizeFields(web, challenge, { redirect_uri: undefined }))).toMatchObject({
      error: 'invalid_request',
      errorDescription: 'redirect_uri is required',
    });
    const url = redirectOf(
      await flow.authorize(authorizeFields(single, challenge, { redirect_uri: undefined, scope: 'openid' })),
    );
    expect(`${url.origin}${url.pathname}`).toBe(`${ISSUER}/ui/login`);
  });

  it('compares redirect URIs as exact strings', async () => {
    for (const redirectUri of [
      'https://app.example/cb/',
      'https://APP.example/cb',
      'https://app.example/CB',
      'http://app.example/cb',
      'https://app.example/cb?x=1',
      'https://app.example:443/cb',
      'https://app.example/other?tenant=a+b',
      'https://app.example/cb#frag',
    ]) {
      expect(await errorPageOf(authorizeFields(web, challenge, { redirect_uri: redirectUri }))).toEqual(
        expect.objectContaining({
          error: 'invalid_request',
          errorDescription: 'redirect_uri is not registered for this client',
        }),
      );
    }
  });

  it('lets the port of a loopback redirect URI vary, and nothing else (RFC 8252 7.3)', async () => {
    const accepted = await redirectTo(
      authorizeFields(native, challenge, {
        redirect_uri: 'http://127.0.0.1:51234/callback',
        prompt: 'none',
        scope: undefined,
      }),
    );
    expect(accepted).toBe(
      `http://127.0.0.1:51234/callback?error=login_required&error_description=The+user+must+sign+in&state=st-123&iss=${ISS}`,
    );
    for (const redirectUri of [
      'http://127.0.0.1:51234/other',
      'http://localhost:51234/callback',
      'https://127.0.0.1:51234/callback',
      'http://127.0.0.1:51234/callback?x=1',
      'http://127.0.0.1.example:51234/callback',
    ]) {
      expect(
        (await errorPageOf(authorizeFields(native, challenge, { redirect_uri: redirectUri })))?.error,
      ).toBe('invalid_request');
    }
  });
});

describe('Authorize: once the client is trusted, errors go back to it with state and iss', () => {
  const cb = 'https://app.example/cb';

  function expected(error: string, description: string, base = cb, state: string | null = 'st-123'): string {
    const query = new URLSearchParams({ error, error_description: description });
    if (state !== null) query.set('state', state);
    query.set('iss', ISSUER);
    return `${base}?${query.toString()}`;
  }

  it('writes the exact RFC 6749 4.1.2.1 and RFC 9207 query', async () => {
    expect(await redirectTo(authorizeFields(web, challenge, { response_type: undefined }))).toBe(
      `https://app.example/cb?error=invalid_request&error_description=response_type+is+required&state=st-123&iss=http%3A%2F%2Flocalhost%3A3000`,
    );
  });

  it('keeps the query of the registered redirect URI', async () => {
    const base = 'https://app.example/other?tenant=a%20b';
    expect(
      await redirectTo(authorizeFields(web, challenge, { redirect_uri: base, response_type: 'token' })),
    ).toBe(
      `${base}&error=unsupported_response_type&error_description=Only+the+code+response+type+is+supported&state=st-123&iss=${ISS}`,
    );
  });

  it('runs each check, in order', async () => {
    const long = 'x'.repeat(513);
    const cases: [FakeClient, Record<string, string | undefined>, string, string][] = [
      [web, { response_type: undefined }, 'invalid_request', 'response_type is required'],
      [
        web,
        { response_type: 'token' },
        'unsupported_response_type',
        'Only the code response type is supported',
      ],
      [
        web,
        { response_type: 'code id_token' },
        'unsupported_response_type',
        'Only the code response type is supported',
      ],
      [web, { response_mode: 'fragment' }, 'invalid_request', 'Only the query response_mode is supported'],
      [web, { response_mode: 'form_post' }, 'invalid_request', 'Only the query response_mode is supported'],
      [machine, {}, 'unauthorized_client', 'The client may not use the authorization code flow'],
      [web, { code_challenge: undefined }, 'invalid_request', 'code_challenge is required'],
      [web, { code_challenge_method: undefined }, 'invalid_request', 'code_challenge_method must be S256'],
      [web, { code_challenge_method: 'plain' }, 'invalid_request', 'code_challenge_method must be S256'],
      [web, { code_challenge: 'abc' }, 'invalid_request', 'code_challenge must be 43 base64url characters'],
      [
        web,
        { code_challenge: `${challenge.slice(0, 42)}=` },
        'invalid_request',
        'code_challenge must be 43 base64url characters',
      ],
      [
        web,
        { request: 'eyJhbGciOiJub25lIn0.e30.' },
        'request_not_supported',
        'The request parameter is not supported',
      ],
      [
        web,
        { request_uri: 'https://app.example/r' },
        'request_uri_not_supported',
        'The request_uri parameter is not supported',
      ],
      [web, { scope: 'openid admin' }, 'invalid_scope', 'The requested scope is not allowed for this client'],
      [
        web,
        { resource: 'not a uri' },
        'invalid_target',
        'resource must be an absolute URI without a fragment',
      ],
      [
        web,
        { resource: 'https://api.example/#x' },
        'invalid_target',
        'resource must be an absolute URI without a fragment',
      ],
      [web, { prompt: 'none login' }, 'invalid_request', 'prompt=none cannot be combined with other values'],
      [
        web,
        { prompt: 'select_account' },
        'invalid_request',
        'prompt=select_account is not supported: a browser session holds one account',
      ],
      [web, { prompt: 'login bogus' }, 'invalid_request', 'Unsupported prompt value bogus'],
      [web, { max_age: '-1' }, 'invalid_request', 'max_age must be a non-negative integer'],
      [web, { max_age: '1.5' }, 'invalid_request', 'max_age must be a non-negative integer'],
      [web, { nonce: long }, 'invalid_request', 'nonce is longer than 512 characters'],
    ];
    for (const [client, overrides, error, description] of cases) {
      const base = client.redirectUris[0];
      expect(await redirectTo(authorizeFields(client, challenge, overrides)), JSON.stringify(overrides)).toBe(
        expected(error, description, base),
      );
    }
  });

  it('reports the first failing check when several fail', async () => {
    const fields = authorizeFields(web, challenge, {
      response_mode: 'fragment',
      code_challenge: undefined,
      scope: 'admin',
    });
    expect(await redirectTo(fields)).toBe(
      expected('invalid_request', 'Only the query response_mode is supported'),
    );
    const machineFields = authorizeFields(machine, challenge, { code_challenge: undefined, scope: 'admin' });
    expect(await redirectTo(machineFields)).toBe(
      expected(
        'unauthorized_client',
        'The client may not use the authorization code flow',
        machine.redirectUris[0],
      ),
    );
  });

  it('refuses any other parameter sent twice, without echoing a doubled state', async () => {
    const fields = authorizeFields(web, challenge);
    expect(await redirectTo([...fields, ['scope', 'openid']])).toBe(
      expected('invalid_request', 'scope was sent more than once'),
    );
    expect(await redirectTo([...fields, ['state', 'other']])).toBe(
      expected('invalid_request', 'state was sent more than once', cb, null),
    );
  });

  it('refuses an over-long state without echoing it', async () => {
    expect(await redirectTo(authorizeFields(web, challenge, { state: 's'.repeat(513) }))).toBe(
      expected('invalid_request', 'state is longer than 512 characters', cb, null),
    );
  });

  it('omits state when none was sent', async () => {
    expect(
      await redirectTo(authorizeFields(web, challenge, { state: undefined, response_type: 'token' })),
    ).toBe(expected('unsupported_response_type', 'Only the code response type is supported', cb, null));
  });

  it('binds resources to the client audience list (RFC 8707, docs/decisions.md #9)', async () => {
    expect(
      await redirectTo(
        authorizeFields(api, challenge, { scope: undefined, resource: 'https://other.example' }),
      ),
    ).toBe(expected('invalid_target', 'The resource is not an audience of this client', api.redirectUris[0]));
    const fields = [
      ...authorizeFields(api, challenge, { scope: undefined, resource: 'https://api.example' }),
      ['resource', 'https://api.example'] as [string, string],
    ];
    handleOf(await flow.authorize(fields), 'login');
  });

  it('accepts a valid request and sends the browser without a session to sign in', async () => {
    for (const overrides of [{}, { prompt: 'login consent' }, { max_age: '0' }, { response_mode: 'query' }]) {
      const handle = handleOf(await flow.authorize(authorizeFields(web, challenge, overrides)), 'login');
      expect(handle).toMatch(/^[A-Za-z0-9_-]{43}$/);
    }
  });
});
