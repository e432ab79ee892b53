import { decodeJwt } from 'jose';
import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  authorizationParameters,
  authorizedTokens,
  authorizeUrl,
  formOf,
  INVALID_CSRF,
  INVALID_GRANT,
  newAppClient,
  newUser,
  refresh,
  REDIRECT_URI,
  useCodeFlow,
  verifyIdToken,
  type AppClient,
  type TestUser,
} from '../support/code-flow.js';
import { FormBrowser, type BrowserResponse } from '@authz/shared/testing/form-browser';
import { withAlteredSignature } from '../support/tokens.js';

// interface.md 4.3, OpenID Connect RP-Initiated Logout 1.0: GET/POST /oauth/logout, driven with
// openid-client building the end-session URL from discovery, and a cookie-keeping browser.
const flow = useCodeFlow();
const LOGGED_OUT = 'https://app.example/logged-out';
const SESSION_COOKIE = '__Host-service_session';

let client: AppClient;
let config: oidc.Configuration;

beforeAll(async () => {
  client = await newAppClient(flow, { postLogoutRedirectUris: [LOGGED_OUT] });
  config = await oidc.discovery(
    new URL(flow.suite.baseUrl),
    client.clientId,
    { id_token_signed_response_alg: 'EdDSA' },
    oidc.ClientSecretBasic(client.clientSecret!),
    { execute: [oidc.allowInsecureRequests] },
  );
});

interface SignedIn {
  user: TestUser;
  browser: FormBrowser;
  idToken: string;
  refreshToken: string;
  accessToken: string;
}

async function signedIn(): Promise<SignedIn> {
  const user = await newUser(flow);
  const browser = new FormBrowser();
  const tokens = await authorizedTokens(flow, client, user, { scope: 'openid offline_access' }, browser);
  return {
    user,
    browser,
    idToken: tokens.id_token as string,
    refreshToken: tokens.refresh_token as string,
    accessToken: tokens.access_token as string,
  };
}

/** The first hop of a new authorization in this browser: the sign-in page means signed out. */
async function nextAuthorization(browser: FormBrowser): Promise<string> {
  const response = await browser.get(authorizeUrl(flow.suite, authorizationParameters({ client })));
  expect(response.status).toBe(302);
  return response.location!;
}

function expectErrorPage(response: BrowserResponse, description: string): void {
  expect(response.status).toBe(400);
  expect(response.location).toBeUndefined();
  expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(response.text).toContain('invalid_request');
  expect(response.text).toContain(description);
}

describe('RP-initiated logout with id_token_hint', () => {
  it('ends the session: back to the registered URI with state, the next authorization signs in, the refresh token fails', async () => {
    const session = await signedIn();
    const url = oidc.buildEndSessionUrl(config, {
      id_token_hint: session.idToken,
      post_logout_redirect_uri: LOGGED_OUT,
      state: 'logout-state-1',
    });
    expect(url.href.startsWith(`${flow.suite.baseUrl}/oauth/logout?`)).toBe(true);
    expect(session.browser.jar.get(SESSION_COOKIE)).toMatch(/^[0-9a-f]{64}$/);

    const response = await session.browser.get(url.href);
    expect(response.status).toBe(302);
    expect(response.location).toBe(`${LOGGED_OUT}?state=logout-state-1`);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.setCookies).toEqual([
      `${SESSION_COOKIE}=; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=0`,
    ]);
    expect(session.browser.jar.get(SESSION_COOKIE)).toBeUndefined();

    expect(await nextAuthorization(session.browser)).toMatch(`${flow.suite.baseUrl}/ui/login?handle=`);
    const refreshed = await refresh(flow, client, session.refreshToken);
    expect(refreshed.status).toBe(400);
    expect(refreshed.body).toMatchObject(INVALID_GRANT);
    const userInfo = await fetch(`${flow.suite.baseUrl}/oauth/userinfo`, {
      headers: { authorization: `Bearer ${session.accessToken}` },
    });
    expect(userInfo.status).toBe(401);
  });

  it('ends the session named by sid even without the cookie (a cross-site POST under SameSite=Lax)', async () => {
    const session = await signedIn();
    const stranger = new FormBrowser();
    const response = await stranger.post(`${flow.suite.baseUrl}/oauth/logout`, [
      ['id_token_hint', session.idToken],
      ['post_logout_redirect_uri', LOGGED_OUT],
    ]);
    expect(response.status).toBe(303);
    expect(response.location).toBe(LOGGED_OUT);
    expect(response.setCookies).toEqual([]);
    // The signed-in browser's cookie now names an ended session.
    expect(await nextAuthorization(session.browser)).toMatch(`${flow.suite.baseUrl}/ui/login?handle=`);
    expect((await refresh(flow, client, session.refreshToken)).status).toBe(400);
  });

  it('without a post_logout_redirect_uri shows the signed-out page', async () => {
    const session = await signedIn();
    const response = await session.browser.get(
      `${flow.suite.baseUrl}/oauth/logout?${new URLSearchParams({ id_token_hint: session.idToken })}`,
    );
    expect(response.status).toBe(302);
    expect(response.location).toBe(`${flow.suite.baseUrl}/ui/signed-out`);
    const page = await session.browser.get(response.location!);
    expect(page.status).toBe(200);
    expect(page.text).toContain('You are signed out');
  });

  it('puts the session id, never the cookie value, in the ID token as sid', async () => {
    const session = await signedIn();
    const claims = await verifyIdToken(flow, client, session.idToken);
    const accessClaims = decodeJwt(session.accessToken);
    expect(claims.sid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(claims.sid).toBe(accessClaims.sid);
    expect(claims.sid).not.toBe(session.browser.jar.get(SESSION_COOKIE));
    expect(typeof claims.auth_time).toBe('number');
  });
});

describe('refusals: never a redirect to an unchecked URI', () => {
  it('an unregistered post_logout_redirect_uri is the error page, and the session stays', async () => {
    const session = await signedIn();
    for (const uri of [
      'https://evil.example/',
      `${LOGGED_OUT}/`,
      REDIRECT_URI,
      'https://APP.example/logged-out',
    ]) {
      const response = await session.browser.get(
        oidc.buildEndSessionUrl(config, { id_token_hint: session.idToken, post_logout_redirect_uri: uri })
          .href,
      );
      expectErrorPage(response, 'post_logout_redirect_uri is not registered for this client');
    }
    expect((await refresh(flow, client, session.refreshToken)).status).toBe(200);
  });

  it('an id_token_hint that is not an ID token of this server is the error page', async () => {
    const session = await signedIn();
    for (const hint of [session.accessToken, withAlteredSignature(session.idToken), 'not.a.jwt']) {
      const response = await session.browser.get(
        `${flow.suite.baseUrl}/oauth/logout?${new URLSearchParams({ id_token_hint: hint, post_logout_redirect_uri: LOGGED_OUT })}`,
      );
      expectErrorPage(response, 'id_token_hint is not a valid ID token of this server');
    }
  });

  it('a post_logout_redirect_uri without a client, and parameters sent twice, are the error page', async () => {
    const browser = new FormBrowser();
    const base = `${flow.suite.baseUrl}/oauth/logout`;
    expectErrorPage(
      await browser.get(`${base}?${new URLSearchParams({ post_logout_redirect_uri: LOGGED_OUT })}`),
      'post_logout_redirect_uri requires client_id or id_token_hint',
    );
    expectErrorPage(
      await browser.get(`${base}?state=a&state=b&client_id=${client.clientId}`),
      'state was sent more than once',
    );
  });
});

describe('RP-initiated logout without id_token_hint', () => {
  it('asks the signed-in user to confirm; nothing ends until the CSRF-protected form is sent', async () => {
    const session = await signedIn();
    const start = await session.browser.get(
      `${flow.suite.baseUrl}/oauth/logout?${new URLSearchParams({
        client_id: client.clientId,
        post_logout_redirect_uri: LOGGED_OUT,
        state: 'confirm-state',
      })}`,
    );
    expect(start.status).toBe(302);
    expect(start.location).toMatch(
      new RegExp(`^${flow.suite.baseUrl}/ui/logout\\?handle=[A-Za-z0-9_-]{43}$`),
    );
    const page = await session.browser.get(start.location!);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Photo app asked to sign you out');
    const form = formOf(page, start.location!, (candidate) =>
      candidate.buttons.some((button) => button.text === 'Sign out'),
    );
    expect(form.method).toBe('POST');
    // Showing the page ended nothing.
    expect((await refresh(flow, client, session.refreshToken)).status).toBe(200);

    const forged = await session.browser.post(
      form.action,
      form.hidden.map(([name, value]): [string, string] => [
        name,
        name === 'csrf_token' ? '0'.repeat(64) : value,
      ]),
    );
    expect(forged.status).toBe(400);
    expect(JSON.parse(forged.text)).toEqual(INVALID_CSRF);

    const confirmed = await session.browser.post(form.action, form.hidden);
    expect(confirmed.status).toBe(303);
    expect(confirmed.location).toBe(`${LOGGED_OUT}?state=confirm-state`);
    expect(confirmed.setCookies[0]).toBe(
      `${SESSION_COOKIE}=; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=0`,
    );
    expect(await nextAuthorization(session.browser)).toMatch(`${flow.suite.baseUrl}/ui/login?handle=`);
    // The session is gone, so the confirmation page has nothing left to end: it says so.
    const again = await session.browser.post(form.action, form.hidden);
    expect(again.status).toBe(200);
    expect(again.text).toContain('You are signed out');
  });

  it('a handle made for one session is refused to another signed-in browser', async () => {
    const first = await signedIn();
    const second = await signedIn();
    const start = await first.browser.get(`${flow.suite.baseUrl}/oauth/logout?client_id=${client.clientId}`);
    const page = await second.browser.get(start.location!);
    // The refusal of every foreign, used or expired handle (docs/hosted-pages.md #23).
    expect(page.status).toBe(400);
    expect(page.text).toContain('has expired or was already used');
    expect(page.text).not.toContain('Sign out?');
    expect((await refresh(flow, client, first.refreshToken)).status).toBe(200);
    expect((await refresh(flow, client, second.refreshToken)).status).toBe(200);
  });

  it('a browser without a session has nothing to end: straight to the registered URI or the signed-out page', async () => {
    const browser = new FormBrowser();
    const toClient = await browser.get(
      `${flow.suite.baseUrl}/oauth/logout?${new URLSearchParams({
        client_id: client.clientId,
        post_logout_redirect_uri: LOGGED_OUT,
        state: 's',
      })}`,
    );
    expect(toClient.status).toBe(302);
    expect(toClient.location).toBe(`${LOGGED_OUT}?state=s`);
    const plain = await browser.get(`${flow.suite.baseUrl}/oauth/logout`);
    expect(plain.status).toBe(302);
    expect(plain.location).toBe(`${flow.suite.baseUrl}/ui/signed-out`);
  });
});
