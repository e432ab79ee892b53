import { describe, expect, it } from 'vitest';
import {
  authorizationParameters,
  authorizeUrl,
  completeAuthorization,
  newAppClient,
  newPkce,
  newUser,
  REDIRECT_URI,
  useCodeFlow,
  type AppClient,
} from '../support/code-flow.js';
import { FormBrowser, type BrowserResponse, type Fields } from '@authz/shared/testing/form-browser';

// RFC 6749 4.1.2.1 and interface.md 4.3 through the gateway: what the authorization endpoint does
// with a request it refuses. Untrusted client or redirect URI: a 400 page, never a redirect.
// Anything else: back to the client with error, state and iss (RFC 9207).
const flow = useCodeFlow();

const STATE = 'xyz-state';

function withParameters(client: AppClient, change: (fields: Fields) => Fields): string {
  return authorizeUrl(flow.suite, change(authorizationParameters({ client, state: STATE })));
}

const without =
  (...names: string[]) =>
  (fields: Fields): Fields =>
    fields.filter(([name]) => !names.includes(name));

const replacing =
  (name: string, value: string) =>
  (fields: Fields): Fields =>
    fields.map(([key, current]): [string, string] => [key, key === name ? value : current]);

/** RFC 6749 4.1.2.1: no redirect, an HTML page with status 400 under the page security headers. */
function expectErrorPage(response: BrowserResponse): void {
  expect(response.status).toBe(400);
  expect(response.location).toBeUndefined();
  expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  expect(response.text).toMatch(/<html/i);
}

/** The redirect back to the client, its query compared whole. */
function expectClientRedirect(
  response: BrowserResponse,
  status: number,
  query: Record<string, unknown>,
): void {
  expect(response.status).toBe(status);
  const location = new URL(response.location!);
  expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
  expect(Object.fromEntries(location.searchParams)).toEqual(query);
}

/** The whole query of an error redirect: error, its description, state and iss. */
const errorQuery = (error: string, description: string) => ({
  error,
  error_description: description,
  state: STATE,
  iss: flow.suite.baseUrl,
});

const RESPONSE_TYPE_TOKEN = [
  'unsupported_response_type',
  'Only the code response type is supported',
] as const;

describe('requests that must not redirect (RFC 6749 4.1.2.1)', () => {
  it.each([
    [
      'an unknown client',
      (fields: Fields) => replacing('client_id', '1b4e28ba-2fa1-4d3b-883f-0016d3cca427')(fields),
    ],
    ['no client_id', without('client_id')],
    [
      'a repeated client_id',
      (fields: Fields): Fields => [
        ...fields,
        ['client_id', fields.find(([name]) => name === 'client_id')![1]],
      ],
    ],
    ['an unregistered redirect URI', replacing('redirect_uri', 'https://evil.example/callback')],
    ['a redirect URI differing only in its query', replacing('redirect_uri', `${REDIRECT_URI}?next=1`)],
    ['a repeated redirect_uri', (fields: Fields): Fields => [...fields, ['redirect_uri', REDIRECT_URI]]],
  ])('%s: 400 HTML page', async (_name, change) => {
    const client = await newAppClient(flow);
    expectErrorPage(await new FormBrowser().get(withParameters(client, change)));
  });

  it('a disabled client: 400 HTML page', async () => {
    const client = await newAppClient(flow);
    const patched = await fetch(`${flow.suite.baseUrl}/api/clients/${client.id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${flow.developer}`, 'content-type': 'application/json' },
      body: JSON.stringify({ enabled: false }),
    });
    expect(patched.status).toBe(200);
    expectErrorPage(await new FormBrowser().get(withParameters(client, (fields) => fields)));
  });

  it('POST /oauth/authorize: the same page for the same refusal', async () => {
    const client = await newAppClient(flow);
    const fields = replacing(
      'redirect_uri',
      'https://evil.example/callback',
    )(authorizationParameters({ client, state: STATE }));
    expectErrorPage(await new FormBrowser().post(`${flow.suite.baseUrl}/oauth/authorize`, fields));
  });
});

describe('errors redirected to the client with state and iss (RFC 6749 4.1.2.1, RFC 9207)', () => {
  it.each([
    [
      'no code_challenge (OAuth 2.1: PKCE required)',
      ['invalid_request', 'code_challenge is required'],
      without('code_challenge', 'code_challenge_method'),
    ],
    [
      'code_challenge_method plain (spec: S256 only)',
      ['invalid_request', 'code_challenge_method must be S256'],
      replacing('code_challenge_method', 'plain'),
    ],
    ['response_type token', RESPONSE_TYPE_TOKEN, replacing('response_type', 'token')],
    ['no response_type', ['invalid_request', 'response_type is required'], without('response_type')],
    [
      'a scope outside the allow-list (docs/decisions.md #8)',
      ['invalid_scope', 'The requested scope is not allowed for this client'],
      replacing('scope', 'openid admin'),
    ],
    [
      'a relative resource (RFC 8707 2)',
      ['invalid_target', 'resource must be an absolute URI without a fragment'],
      (fields: Fields): Fields => [...fields, ['resource', 'api']],
    ],
    [
      'a resource with a fragment (RFC 8707 2)',
      ['invalid_target', 'resource must be an absolute URI without a fragment'],
      (fields: Fields): Fields => [...fields, ['resource', 'https://api.example/#x']],
    ],
    [
      'a repeated scope (RFC 6749 3.1)',
      ['invalid_request', 'scope was sent more than once'],
      (fields: Fields): Fields => [...fields, ['scope', 'email']],
    ],
    [
      'prompt=none without a session (OIDC Core 3.1.2.6)',
      ['login_required', 'The user must sign in'],
      (fields: Fields): Fields => [...fields, ['prompt', 'none']],
    ],
  ])('%s: %s', async (_name, [error, description], change) => {
    const client = await newAppClient(flow);
    const response = await new FormBrowser().get(withParameters(client, change));
    expectClientRedirect(response, 302, errorQuery(error, description));
  });

  it('POST /oauth/authorize redirects with 303', async () => {
    const client = await newAppClient(flow);
    const fields = replacing('response_type', 'token')(authorizationParameters({ client, state: STATE }));
    const response = await new FormBrowser().post(`${flow.suite.baseUrl}/oauth/authorize`, fields);
    expectClientRedirect(response, 303, errorQuery(...RESPONSE_TYPE_TOKEN));
  });

  it('without state, the error redirect has none either', async () => {
    const client = await newAppClient(flow);
    const response = await new FormBrowser().get(
      withParameters(client, (fields) => replacing('response_type', 'token')(without('state')(fields))),
    );
    const { state: _none, ...withoutState } = errorQuery(...RESPONSE_TYPE_TOKEN);
    expectClientRedirect(response, 302, withoutState);
  });

  it('the user denies consent: access_denied', async () => {
    const client = await newAppClient(flow);
    const result = await completeAuthorization(
      flow,
      new FormBrowser(),
      await newUser(flow),
      { client, state: STATE },
      { decision: 'deny' },
    );
    expect(result.prompts).toEqual(['login', 'consent']);
    expect(result.query).toEqual(errorQuery('access_denied', 'The user denied the request'));
  });

  it('prompt=none with a session but no consent yet: consent_required', async () => {
    const client = await newAppClient(flow);
    const other = await newAppClient(flow);
    const browser = new FormBrowser();
    const user = await newUser(flow);
    await completeAuthorization(flow, browser, user, { client: other });
    const response = await browser.get(
      authorizeUrl(
        flow.suite,
        authorizationParameters({ client, state: STATE, pkce: newPkce(), extra: [['prompt', 'none']] }),
      ),
    );
    expectClientRedirect(
      response,
      302,
      errorQuery('consent_required', 'The user has not consented to this request'),
    );
  });
});

describe('a valid request without a session', () => {
  it('goes to the hosted login page with a handle (interface.md 4.5)', async () => {
    const client = await newAppClient(flow);
    const response = await new FormBrowser().get(withParameters(client, (fields) => fields));
    expect(response.status).toBe(302);
    expect(response.location).toMatch(new RegExp(`^${flow.suite.baseUrl}/ui/login\\?handle=[^&]+$`));
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.text).toBe('');
  });

  it('POST /oauth/authorize: 303 to the same page', async () => {
    const client = await newAppClient(flow);
    const response = await new FormBrowser().post(
      `${flow.suite.baseUrl}/oauth/authorize`,
      authorizationParameters({ client, state: STATE }),
    );
    expect(response.status).toBe(303);
    expect(response.location).toMatch(new RegExp(`^${flow.suite.baseUrl}/ui/login\\?handle=[^&]+$`));
  });

  it('a body that is not a form: 415', async () => {
    const response = await fetch(`${flow.suite.baseUrl}/oauth/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ response_type: 'code' }),
    });
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({
      error: 'invalid_request',
      error_description: 'Send the body as application/x-www-form-urlencoded',
      code: 'INVALID_REQUEST',
      statusCode: 415,
    });
  });
});
