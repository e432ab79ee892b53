import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS_DIR, launchChromium } from '../support/chromium.js';
import { call } from '../support/clients.js';
import { RelyingParty } from '../support/relying-party.js';
import { useSuite } from '../support/use-suite.js';

// interface.md 4.3, OpenID Connect RP-Initiated Logout 1.0 section 2 in Chromium: without an
// id_token_hint the signed-in user confirms on the hosted page (no JavaScript, the session's
// CSRF token), then lands on the relying party's registered URI with its state.
const context = useSuite();
const password = 'amber-Falcon-meadow-27';
const email = `logout-${Date.now()}@example.com`;

let browser: Browser;
let party: RelyingParty;
let clientId: string;

beforeAll(async () => {
  const { suite } = context;
  party = await RelyingParty.start();
  await call(suite, 'POST', '/auth/register', { body: { email, password } });
  const login = await call<{ access_token: string }>(suite, 'POST', '/auth/login', {
    body: { email, password },
  });
  const created = await call<{ clientId: string; clientSecret: string }>(suite, 'POST', '/api/clients/', {
    token: login.body.access_token,
    body: {
      name: 'Logout test app',
      redirectUris: [party.redirectUri],
      postLogoutRedirectUris: [party.postLogoutRedirectUri],
      scopes: ['openid', 'email'],
      tokenEndpointAuthMethod: 'client_secret_basic',
    },
  });
  clientId = created.body.clientId;
  await party.configure(suite.baseUrl, clientId, created.body.clientSecret);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await party?.close();
});

async function signIn(page: Page): Promise<void> {
  await page.goto(`${party.origin}/start`);
  await page.waitForURL(`${context.suite.baseUrl}/ui/login?**`);
  await page.fill('input[type=email][name=email]', email);
  await page.fill('input[type=password][name=password]', password);
  await page.click('form [type=submit]');
  const callback = `${party.origin}/callback`;
  await page.waitForURL((url) => url.pathname === '/ui/consent' || url.href.startsWith(callback));
  if (new URL(page.url()).pathname === '/ui/consent') {
    await page.getByRole('button', { name: 'Allow' }).click();
  }
  await page.waitForURL(`${party.origin}/callback**`);
}

describe('the logout confirmation page', () => {
  let session: BrowserContext;

  it('asks before signing out, then returns to the relying party with its state', async () => {
    session = await browser.newContext({ javaScriptEnabled: false });
    const page = await session.newPage();
    await signIn(page);

    await page.goto(
      party.endSessionUrl({
        client_id: clientId,
        post_logout_redirect_uri: party.postLogoutRedirectUri,
        state: 'browser-logout-state',
      }),
    );
    await page.waitForURL(`${context.suite.baseUrl}/ui/logout?handle=**`);
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'logout-page.png'), fullPage: true });
    await expect(page.getByRole('heading', { name: 'Sign out?' }).count()).resolves.toBe(1);
    await expect(page.getByText('Logout test app asked to sign you out').count()).resolves.toBe(1);
    await page.getByRole('button', { name: 'Sign out' }).click();

    await page.waitForURL(`${party.postLogoutRedirectUri}?**`);
    expect(JSON.parse((await page.textContent('#logged-out')) ?? 'null')).toEqual({
      state: 'browser-logout-state',
    });
    const cookies = await session.cookies(context.suite.baseUrl);
    expect(cookies.filter((cookie) => cookie.name === '__Host-service_session')).toEqual([]);
  });

  it('the next sign-in asks for the password again', async () => {
    const page = await session.newPage();
    await page.goto(`${party.origin}/start`);
    await page.waitForURL(`${context.suite.baseUrl}/ui/login?**`);
    await session.close();
  });

  it('without a registered URI ends on the signed-out page', async () => {
    const fresh = await browser.newContext({ javaScriptEnabled: false });
    const page = await fresh.newPage();
    await signIn(page);
    await page.goto(party.endSessionUrl({}));
    await page.waitForURL(`${context.suite.baseUrl}/ui/logout?handle=**`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${context.suite.baseUrl}/ui/signed-out`);
    await expect(page.getByRole('heading', { name: 'You are signed out' }).count()).resolves.toBe(1);
    await fresh.close();
  });
});
