import { randomUUID } from 'node:crypto';
import { TestDocumentServer } from '@authz/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/clients.js';
import {
  authorizationParameters,
  authorizeUrl,
  completeAuthorization,
  newAppClient,
  newUser,
  REDIRECT_URI,
  useCodeFlow,
  type AppClient,
} from '../support/code-flow.js';
import { FormBrowser, type BrowserResponse, type Fields } from '@authz/shared/testing/form-browser';

// RFC 9700 section 4.11.2 and docs/authorization.md #19: anyone can register a redirect URI
// through open registration or a client ID metadata document, so /oauth/authorize shows such a
// client's errors on its own page instead of redirecting before the user has done anything. A
// developer's client keeps the error redirect of RFC 6749 section 4.1.2.1.
const flow = useCodeFlow({}, { CIMD_ENABLED: 'true', CIMD_ALLOW_INSECURE_LOOPBACK: 'true' });
let documents: TestDocumentServer;

beforeAll(async () => {
  documents = await TestDocumentServer.start();
});
afterAll(() => documents.close());

const STATE = 'xyz-state';
const publicClient = (clientId: string): AppClient => ({ id: '', clientId, confidential: false });
const metadata = (clientId: string) => ({
  client_id: clientId,
  client_name: 'Self-registered app',
  redirect_uris: [REDIRECT_URI],
  grant_types: ['authorization_code', 'refresh_token'],
  token_endpoint_auth_method: 'none',
  scope: 'openid email',
});

async function dynamicClient(): Promise<AppClient> {
  const { client_id: _none, ...body } = metadata('');
  const registered = await call<{ client_id: string }>(flow.suite, 'POST', '/oauth/register', { body });
  expect(registered.status).toBe(201);
  return publicClient(registered.body.client_id);
}

function cimdClient(): AppClient {
  const path = `/apps/${randomUUID()}/client.json`;
  const clientId = documents.url(path);
  documents.serve(path, { body: metadata(clientId) });
  return publicClient(clientId);
}

const replacing =
  (name: string, value: string) =>
  (fields: Fields): Fields =>
    fields.map(([key, current]): [string, string] => [key, key === name ? value : current]);

const without =
  (...names: string[]) =>
  (fields: Fields): Fields =>
    fields.filter(([name]) => !names.includes(name));

const REFUSALS: [string, string, string, (fields: Fields) => Fields][] = [
  [
    'a scope outside the allow-list',
    'invalid_scope',
    'The requested scope is not allowed for this client',
    replacing('scope', 'openid admin'),
  ],
  [
    'response_type token',
    'unsupported_response_type',
    'Only the code response type is supported',
    replacing('response_type', 'token'),
  ],
  [
    'no code_challenge',
    'invalid_request',
    'code_challenge is required',
    without('code_challenge', 'code_challenge_method'),
  ],
];

function authorize(client: AppClient, change: (fields: Fields) => Fields): Promise<BrowserResponse> {
  const fields = change(authorizationParameters({ client, state: STATE }));
  return new FormBrowser().get(authorizeUrl(flow.suite, fields));
}

/** The error page: 400 HTML naming the error, and no way on to the registered redirect URI. */
function expectErrorPage(response: BrowserResponse, error: string, description: string): void {
  expect(response.status).toBe(400);
  expect(response.location).toBeUndefined();
  expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.text).toContain('This request cannot be completed');
  expect(response.text).toContain(`Error: <code>${error}</code>`);
  expect(response.text).toContain(description);
  expect(response.text).not.toContain('app.example');
}

describe('errors before any interaction, for clients nobody vouches for (RFC 9700 4.11.2)', () => {
  it.each(REFUSALS)(
    'a dynamically registered client, %s: the error page, no redirect',
    async (_name, error, description, change) => {
      expectErrorPage(await authorize(await dynamicClient(), change), error, description);
    },
  );

  it.each(REFUSALS)(
    'a CIMD client, %s: the error page, no redirect',
    async (_name, error, description, change) => {
      expectErrorPage(await authorize(cimdClient(), change), error, description);
    },
  );

  it('a dynamically registered client with prompt=none and no session: the error page', async () => {
    const response = await authorize(await dynamicClient(), (fields) => [...fields, ['prompt', 'none']]);
    expectErrorPage(response, 'login_required', 'The user must sign in');
  });
});

describe('errors that still go back to the client', () => {
  it.each(REFUSALS)(
    "a developer's client, %s: 302 to its redirect URI (RFC 6749 4.1.2.1)",
    async (_name, error, description, change) => {
      const response = await authorize(await newAppClient(flow), change);
      expect(response.status).toBe(302);
      const location = new URL(response.location!);
      expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
      expect(Object.fromEntries(location.searchParams)).toEqual({
        error,
        error_description: description,
        state: STATE,
        iss: flow.suite.baseUrl,
      });
    },
  );

  it('a dynamically registered client whose user denies consent: access_denied, the user chose', async () => {
    const result = await completeAuthorization(
      flow,
      new FormBrowser(),
      await newUser(flow),
      { client: await dynamicClient(), state: STATE },
      { decision: 'deny' },
    );
    expect(result.prompts).toEqual(['login', 'consent']);
    expect(result.query).toEqual({
      error: 'access_denied',
      error_description: 'The user denied the request',
      state: STATE,
      iss: flow.suite.baseUrl,
    });
  });
});
