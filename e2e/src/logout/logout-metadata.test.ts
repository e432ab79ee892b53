import { randomUUID } from 'node:crypto';
import { TestDocumentServer } from '@authz/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createClient, expectedView, newDeveloper, validationError } from '../support/clients.js';
import { useSuite } from '../support/use-suite.js';

// interface.md 4.3 client metadata (docs/clients.md #20) through the developer API, dynamic
// registration and a client ID metadata document, and what /oauth/logout makes of it.
const context = useSuite({
  serviceEnv: { CIMD_ENABLED: 'true', CIMD_ALLOW_INSECURE_LOOPBACK: 'true' },
  gatewayEnv: { REGISTER_CLIENT_RATE_LIMIT: '1000' },
});
const REDIRECT_URI_MESSAGE =
  'must be an absolute https URL, or http on 127.0.0.1, [::1] or localhost, without a fragment';
let token: string;
let documents: TestDocumentServer;

beforeAll(async () => {
  token = (await newDeveloper(context.suite)).token;
  documents = await TestDocumentServer.start();
});
afterAll(() => documents?.close());

const logoutUrl = (fields: Record<string, string>) =>
  `${context.suite.baseUrl}/oauth/logout?${new URLSearchParams(fields).toString()}`;

describe('the developer API', () => {
  it('stores, shows and changes the logout fields', async () => {
    const created = await createClient(context.suite, token, {
      name: 'Logout app',
      redirectUris: ['https://app.example/cb'],
      postLogoutRedirectUris: ['https://app.example/bye', 'http://127.0.0.1:8400/bye'],
      backchannelLogoutUri: 'https://app.example/backchannel',
      backchannelLogoutSessionRequired: true,
    });
    expect(created.status).toBe(201);
    const { clientSecret: _secret, ...view } = created.body;
    expect(view).toEqual(
      expectedView({
        name: 'Logout app',
        redirectUris: ['https://app.example/cb'],
        postLogoutRedirectUris: ['https://app.example/bye', 'http://127.0.0.1:8400/bye'],
        backchannelLogoutUri: 'https://app.example/backchannel',
        backchannelLogoutSessionRequired: true,
      }),
    );
    const patched = await call(context.suite, 'PATCH', `/api/clients/${created.body.id}`, {
      token,
      body: { backchannelLogoutUri: null, postLogoutRedirectUris: [] },
    });
    expect(patched.body).toMatchObject({
      postLogoutRedirectUris: [],
      backchannelLogoutUri: null,
      backchannelLogoutSessionRequired: true,
    });
  });

  it('refuses URIs a redirect URI could not be, and a back-channel URI that is not https', async () => {
    const response = await createClient(context.suite, token, {
      name: 'Bad logout app',
      redirectUris: ['https://app.example/cb'],
      postLogoutRedirectUris: ['https://app.example/bye#frag', 'javascript:alert(1)'],
      backchannelLogoutUri: 'http://app.example/backchannel',
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(
      validationError([
        { path: 'postLogoutRedirectUris.0', message: REDIRECT_URI_MESSAGE },
        { path: 'postLogoutRedirectUris.1', message: REDIRECT_URI_MESSAGE },
        { path: 'backchannelLogoutUri', message: 'must be an absolute https URL without a fragment' },
      ]),
    );
  });
});

describe('dynamic registration', () => {
  it('registers and echoes the logout members, and omits them when none were sent', async () => {
    const registered = await call(context.suite, 'POST', '/oauth/register', {
      body: {
        redirect_uris: ['https://app.example/cb'],
        token_endpoint_auth_method: 'none',
        post_logout_redirect_uris: ['https://app.example/bye'],
        backchannel_logout_uri: 'https://app.example/backchannel',
        backchannel_logout_session_required: true,
      },
    });
    expect(registered.status).toBe(201);
    expect(registered.body).toMatchObject({
      post_logout_redirect_uris: ['https://app.example/bye'],
      backchannel_logout_uri: 'https://app.example/backchannel',
      backchannel_logout_session_required: true,
    });
    const plain = await call(context.suite, 'POST', '/oauth/register', {
      body: { redirect_uris: ['https://app.example/cb'], token_endpoint_auth_method: 'none' },
    });
    expect(Object.keys(plain.body).filter((key) => /logout/.test(key))).toEqual([]);
  });

  it('refuses bad logout members with invalid_client_metadata', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [
        { post_logout_redirect_uris: 'https://app.example/bye' },
        'post_logout_redirect_uris must be an array of strings',
      ],
      [
        { post_logout_redirect_uris: ['ftp://app.example/bye'] },
        `post_logout_redirect_uris[0]: ${REDIRECT_URI_MESSAGE}`,
      ],
      [
        { backchannel_logout_uri: 'https://app.example/bc#x' },
        'backchannel_logout_uri: must be an absolute https URL without a fragment',
      ],
      [
        { backchannel_logout_session_required: 'yes' },
        'backchannel_logout_session_required must be a boolean',
      ],
    ];
    for (const [members, description] of cases) {
      const response = await call(context.suite, 'POST', '/oauth/register', {
        body: { redirect_uris: ['https://app.example/cb'], token_endpoint_auth_method: 'none', ...members },
      });
      expect({ members, body: response.body }).toEqual({
        members,
        body: {
          error: 'invalid_client_metadata',
          error_description: description,
          code: 'INVALID_CLIENT_METADATA',
          statusCode: 400,
        },
      });
    }
  });
});

describe('a client ID metadata document', () => {
  it("honours the document's post_logout_redirect_uris at /oauth/logout", async () => {
    const path = `/apps/${randomUUID()}/client.json`;
    const clientId = documents.url(path);
    documents.serve(path, {
      body: {
        client_id: clientId,
        client_name: 'Notes',
        redirect_uris: ['https://notes.example/callback'],
        post_logout_redirect_uris: ['https://notes.example/bye'],
      },
    });
    const registered = await fetch(
      logoutUrl({ client_id: clientId, post_logout_redirect_uri: 'https://notes.example/bye', state: 'n' }),
      { redirect: 'manual' },
    );
    expect(registered.status).toBe(302);
    expect(registered.headers.get('location')).toBe('https://notes.example/bye?state=n');
    const other = await fetch(
      logoutUrl({ client_id: clientId, post_logout_redirect_uri: 'https://notes.example/callback' }),
      { redirect: 'manual' },
    );
    expect(other.status).toBe(400);
    expect(other.headers.get('location')).toBeNull();
  });
});
