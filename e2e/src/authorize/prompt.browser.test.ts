import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/chromium.js';
import {
  REDIRECT_URI,
  authorizeUrl,
  newAppClient,
  newPkce,
  newUser,
  useCodeFlow,
  type AppClient,
  type Pkce,
  type TestUser,
} from '../support/code-flow.js';
import type { Fields } from '@authz/shared/testing/form-browser';
import { basicAuth, requestToken } from '../support/tokens.js';

// OIDC Core 3.1.2.1 prompt and max_age, 3.1.2.2 id_token_hint and 3.1.2.6 errors (extensions
// prompt and max_age), as a person in Chromium meets them. The client's redirect URI is a loopback
// listener of the test (RFC 8252 section 7.3), which reads the code or the error from it.
const flow = useCodeFlow();
let browser: Browser;
let client: AppClient;
let listener: Server;
let redirectUri: string;

beforeAll(async () => {
  listener = createServer((_request, response) => response.writeHead(200).end('client'));
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  redirectUri = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/callback`;
  client = await newAppClient(flow, { redirectUris: [redirectUri] });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => listener?.close(resolve));
});

function parameters(target: AppClient, pkce: Pkce, extra: Fields): Fields {
  return [
    ['response_type', 'code'],
    ['client_id', target.clientId],
    ['redirect_uri', target === client ? redirectUri : REDIRECT_URI],
    ['scope', 'openid email'],
    ['state', 'af0ifjsldkj'],
    ['nonce', 'n-0S6_WzA2Mj'],
    ['code_challenge', pkce.challenge],
    ['code_challenge_method', 'S256'],
    ...extra,
  ];
}

async function newBrowserSession(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  return { context, page: await context.newPage() };
}

interface Visit {
  /** The hosted pages the browser met, in order. */
  prompts: string[];
  callback: URL;
  pkce: Pkce;
}

/** Opens the authorization URL and goes through whatever page comes, as `user` would. */
async function authorize(page: Page, user: TestUser, extra: Fields = []): Promise<Visit> {
  const pkce = newPkce();
  const prompts: string[] = [];
  await page.goto(authorizeUrl(flow.suite, parameters(client, pkce, extra)));
  for (let hop = 0; hop < 4; hop += 1) {
    const url = new URL(page.url());
    if (url.href.startsWith(`${redirectUri}?`)) return { prompts, callback: url, pkce };
    if (url.pathname === '/ui/login') {
      prompts.push('login');
      await page.fill('input[name=email]', user.email);
      await page.fill('input[name=password]', user.password);
      await page.click('form [type=submit]');
    } else if (url.pathname === '/ui/consent') {
      prompts.push('consent');
      await page.getByRole('button', { name: 'Allow' }).click();
    } else {
      throw new Error(`unexpected page ${url.href}`);
    }
    await page.waitForURL((next) => next.href !== url.href);
  }
  throw new Error('the authorization did not come back');
}

async function idTokenClaims(visit: Visit) {
  const code = visit.callback.searchParams.get('code');
  expect(code).not.toBeNull();
  const tokens = await requestToken(
    flow.suite,
    [
      ['grant_type', 'authorization_code'],
      ['code', code!],
      ['redirect_uri', redirectUri],
      ['code_verifier', visit.pkce.verifier],
    ],
    basicAuth(client.clientId, client.clientSecret!),
  );
  expect(tokens.status).toBe(200);
  const jwks = createRemoteJWKSet(new URL(`${flow.suite.baseUrl}/.well-known/jwks.json`));
  const { payload } = await jwtVerify(tokens.body.id_token as string, jwks, {
    issuer: flow.suite.baseUrl,
    audience: client.clientId,
  });
  return { payload, idToken: tokens.body.id_token as string };
}

function expectError(visit: Visit, error: string): void {
  expect(Object.fromEntries(visit.callback.searchParams)).toEqual({
    error,
    error_description: expect.any(String),
    state: 'af0ifjsldkj',
    iss: flow.suite.baseUrl,
  });
}

describe('prompt and max_age (OIDC Core 3.1.2.1)', () => {
  it('prompt=login and max_age=0 ask a signed-in user to sign in again; auth_time moves on', async () => {
    const user = await newUser(flow);
    const { context, page } = await newBrowserSession();
    const first = await authorize(page, user);
    expect(first.prompts).toEqual(['login', 'consent']);
    const { payload: before } = await idTokenClaims(first);

    const quiet = await authorize(page, user);
    expect(quiet.prompts).toEqual([]);

    await new Promise((resolve) => setTimeout(resolve, 1100));
    const again = await authorize(page, user, [['prompt', 'login']]);
    expect(again.prompts).toEqual(['login']);
    const { payload: after } = await idTokenClaims(again);
    expect(after.auth_time as number).toBeGreaterThan(before.auth_time as number);

    await new Promise((resolve) => setTimeout(resolve, 1100));
    const aged = await authorize(page, user, [['max_age', '0']]);
    expect(aged.prompts).toEqual(['login']);
    const { payload: fresh } = await idTokenClaims(aged);
    expect(fresh.auth_time as number).toBeGreaterThan(after.auth_time as number);
    // Each sign-in opens a session of its own, which the ID token names.
    expect(after.sid).not.toBe(before.sid);
    expect(fresh.sid).not.toBe(after.sid);

    const young = await authorize(page, user, [['max_age', '3600']]);
    expect(young.prompts).toEqual([]);
    expect((await idTokenClaims(young)).payload.auth_time).toBe(fresh.auth_time);
    await context.close();
  });

  it('prompt=consent shows the consent page again', async () => {
    const user = await newUser(flow);
    const { context, page } = await newBrowserSession();
    await authorize(page, user);
    const visit = await authorize(page, user, [['prompt', 'consent']]);
    expect(visit.prompts).toEqual(['consent']);
    await context.close();
  });
});

describe('prompt=none (OIDC Core 3.1.2.6 errors, redirected with iss and state)', () => {
  it('login_required without a session; consent_required before consent; a code once both exist', async () => {
    const user = await newUser(flow);
    const { context, page } = await newBrowserSession();
    expectError(await authorize(page, user, [['prompt', 'none']]), 'login_required');

    // Signed in (via another client's flow) but never consented to this one.
    const other = await newAppClient(flow, { name: 'Other app' });
    await page.goto(authorizeUrl(flow.suite, parameters(other, newPkce(), [])));
    await page.fill('input[name=email]', user.email);
    await page.fill('input[name=password]', user.password);
    await page.click('form [type=submit]');
    await page.waitForURL(/\/ui\/consent/);
    expectError(await authorize(page, user, [['prompt', 'none']]), 'consent_required');

    await authorize(page, user);
    const silent = await authorize(page, user, [['prompt', 'none']]);
    expect(silent.prompts).toEqual([]);
    expect(silent.callback.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await context.close();
  });

  it('id_token_hint: a code for the user it names, login_required for another user', async () => {
    const alice = await newUser(flow);
    const bob = await newUser(flow);
    const { context, page } = await newBrowserSession();
    const { idToken: aliceHint } = await idTokenClaims(await authorize(page, alice));
    const bobBrowser = await newBrowserSession();
    const { idToken: bobHint } = await idTokenClaims(await authorize(bobBrowser.page, bob));
    await bobBrowser.context.close();

    const same = await authorize(page, alice, [
      ['prompt', 'none'],
      ['id_token_hint', aliceHint],
    ]);
    expect(same.callback.searchParams.get('code')).not.toBeNull();
    expectError(
      await authorize(page, alice, [
        ['prompt', 'none'],
        ['id_token_hint', bobHint],
      ]),
      'login_required',
    );
    await context.close();
  });

  it('refuses select_account and an id_token_hint that is not an ID token for this client', async () => {
    const user = await newUser(flow);
    const { context, page } = await newBrowserSession();
    const selectAccount = await authorize(page, user, [['prompt', 'select_account']]);
    expectError(selectAccount, 'invalid_request');
    expect(selectAccount.callback.searchParams.get('error_description')).toBe(
      'prompt=select_account is not supported: a browser session holds one account',
    );
    const bogus = await authorize(page, user, [['id_token_hint', 'not.an.idtoken']]);
    expectError(bogus, 'invalid_request');
    expect(bogus.callback.searchParams.get('error_description')).toBe(
      'id_token_hint is not a valid ID token issued to this client',
    );
    await context.close();
  });
});
