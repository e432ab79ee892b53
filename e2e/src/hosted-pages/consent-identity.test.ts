import { randomUUID } from 'node:crypto';
import { TestDocumentServer } from '@authz/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorizationParameters,
  authorizeUrl,
  newAppClient,
  newUser,
  REDIRECT_URI,
  submitLogin,
  useCodeFlow,
  type AppClient,
  type TestUser,
} from '../support/code-flow.js';
import { pageText, FormBrowser } from '@authz/shared/testing/form-browser';
import { registerClient } from '../support/exchange-helpers.js';

// The consent screen says who is asking in more than the client's own words (docs/hosted-pages.md
// #23, docs/security.md #12 finding 5): the host the browser goes back to, the resources the
// access is for, and, for clients nobody vouches for (open registration, client ID metadata
// documents), that the name is self-chosen and unverified.
const flow = useCodeFlow(
  {},
  {
    CIMD_ENABLED: 'true',
    CIMD_ALLOW_INSECURE_LOOPBACK: 'true',
    DEFAULT_DYNAMIC_REGISTRATION_SCOPES: 'openid email profile',
  },
);
let documents: TestDocumentServer;
beforeAll(async () => {
  documents = await TestDocumentServer.start();
});
afterAll(() => documents.close());

const API = 'https://api.example/calendar';
const FILES = 'https://files.example/v1';

/** Signs `user` in for an authorization request of `client`; the consent page it lands on. */
async function consentPage(client: AppClient, user: TestUser, extra: [string, string][] = []) {
  const browser = new FormBrowser();
  const parameters = authorizationParameters({ client, scope: 'openid email', extra });
  const first = await browser.get(authorizeUrl(flow.suite, parameters));
  expect(first.status).toBe(302);
  const signedIn = await submitLogin(browser, first.location!, user);
  const resumed = await browser.get(signedIn.location!);
  expect(resumed.location).toMatch(new RegExp(`^${flow.suite.baseUrl}/ui/consent\\?handle=`));
  const page = await browser.get(resumed.location!);
  expect(page.status).toBe(200);
  return page;
}

function dynamicClient(name: string): Promise<AppClient> {
  return registerClient(flow.suite, {
    client_name: name,
    redirect_uris: [REDIRECT_URI],
    grant_types: ['authorization_code'],
    token_endpoint_auth_method: 'none',
    scope: 'openid email',
  });
}

function cimdClient(name: string): { client: AppClient; documentHost: string } {
  const path = `/apps/${randomUUID()}/client.json`;
  const clientId = documents.url(path);
  documents.serve(path, {
    body: {
      client_id: clientId,
      client_name: name,
      redirect_uris: [REDIRECT_URI],
      grant_types: ['authorization_code'],
      token_endpoint_auth_method: 'none',
      scope: 'openid email',
    },
  });
  return { client: { id: '', clientId, confidential: false }, documentHost: new URL(clientId).host };
}

describe('the consent screen names the host, the resources and whether the name is verified', () => {
  it("a developer's client: its name, where the browser goes back, no word of unverified", async () => {
    const user = await newUser(flow);
    const client = await newAppClient(flow, { name: 'Photo app' });
    expect(pageText((await consentPage(client, user)).text)).toBe(
      `Allow Photo app to access your account? Signed in as ${user.email} ` +
        'Photo app is asking for: Confirm your identity New Your email address New ' +
        'After you choose, you go back to app.example. Deny Allow',
    );
    const withResources = await consentPage(client, user, [
      ['resource', API],
      ['resource', FILES],
    ]);
    expect(pageText(withResources.text)).toBe(
      `Allow Photo app to access your account? Signed in as ${user.email} ` +
        'Photo app is asking for: Confirm your identity New Your email address New ' +
        `The access is only for: ${API} ${FILES} ` +
        'After you choose, you go back to app.example. Deny Allow',
    );
  });

  it('a dynamically registered client calling itself Google Drive: unverified, in plain words', async () => {
    const user = await newUser(flow);
    const client = await dynamicClient('Google Drive');
    const unverified =
      'Unverified app. It calls itself “Google Drive”, a name it chose when it registered here; ' +
      'nobody has checked who runs it. Allow only if you trust app.example.';
    expect(pageText((await consentPage(client, user)).text)).toBe(
      `Allow an unverified app to access your account? Signed in as ${user.email} ${unverified} ` +
        'It is asking for: Confirm your identity New Your email address New ' +
        'After you choose, you go back to app.example. Deny Allow',
    );
    expect(pageText((await consentPage(client, user, [['resource', API]])).text)).toBe(
      `Allow an unverified app to access your account? Signed in as ${user.email} ${unverified} ` +
        'It is asking for: Confirm your identity New Your email address New ' +
        `The access is only for: ${API} ` +
        'After you choose, you go back to app.example. Deny Allow',
    );
  });

  it('a client ID metadata document client: unverified, with the host of its document', async () => {
    const user = await newUser(flow);
    const { client, documentHost } = cimdClient('Google Drive');
    const unverified =
      `Unverified app. It calls itself “Google Drive”, a name it chose in its metadata document at ${documentHost}; ` +
      'nobody has checked who runs it. Allow only if you trust app.example.';
    expect(pageText((await consentPage(client, user)).text)).toBe(
      `Allow an unverified app to access your account? Signed in as ${user.email} ${unverified} ` +
        'It is asking for: Confirm your identity New Your email address New ' +
        'After you choose, you go back to app.example. Deny Allow',
    );
    expect(pageText((await consentPage(client, user, [['resource', API]])).text)).toBe(
      `Allow an unverified app to access your account? Signed in as ${user.email} ${unverified} ` +
        'It is asking for: Confirm your identity New Your email address New ' +
        `The access is only for: ${API} ` +
        'After you choose, you go back to app.example. Deny Allow',
    );
  });

  it('escapes a hostile name and resource: text, never markup', async () => {
    const user = await newUser(flow);
    const client = await dynamicClient('<img src=x onerror=alert(1)>"&');
    const resource = 'https://api.example/<b>?q="x"&y=1';
    const page = await consentPage(client, user, [['resource', resource]]);
    expect(page.text).not.toContain('<img');
    expect(page.text).not.toContain('<b>');
    expect(page.text).toContain('It calls itself “&lt;img src=x onerror=alert(1)&gt;&quot;&amp;”');
    expect(pageText(page.text)).toContain(`The access is only for: ${resource} `);
  });
});
