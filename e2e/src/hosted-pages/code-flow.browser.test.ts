import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/clients.js';
import { useSuite } from '../support/use-suite.js';
import { ARTIFACTS_DIR, launchChromium } from '../support/chromium.js';
import { RelyingParty, type SignInResult } from '../support/relying-party.js';

// interface.md 4.3 / 4.5 and docs/contract.md "Hosted pages", driven as a person would: an RP on loopback
// (openid-client) starts the authorization, Chromium signs in and consents on the hosted pages,
// the RP redeems the code and validates iss, state, PKCE, nonce and the ID token.
const context = useSuite();
const password = 'amber-Falcon-meadow-27';
const email = `browser-${Date.now()}@example.com`;

let browser: Browser;
let party: RelyingParty;
let userId: string;
let clientId: string;

beforeAll(async () => {
  const { suite } = context;
  party = await RelyingParty.start();
  const registered = await call<{ id: string }>(suite, 'POST', '/auth/register', {
    body: { email, password },
  });
  userId = registered.body.id;
  const login = await call<{ access_token: string }>(suite, 'POST', '/auth/login', {
    body: { email, password },
  });
  const created = await call<{ clientId: string; clientSecret: string }>(suite, 'POST', '/api/clients/', {
    token: login.body.access_token,
    body: {
      name: 'Browser test app',
      redirectUris: [party.redirectUri],
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

async function readResult(page: Page): Promise<SignInResult> {
  await page.waitForURL(`${party.origin}/callback**`);
  return JSON.parse((await page.textContent('#result')) ?? 'null') as SignInResult;
}

describe('authorization code flow in a browser', () => {
  let session: BrowserContext;

  it('signs in, consents and returns to the relying party with validated tokens', async () => {
    session = await browser.newContext();
    const page = await session.newPage();
    await page.goto(`${party.origin}/start`);

    await page.waitForURL(`${context.suite.baseUrl}/ui/login?**`);
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'login-page.png'), fullPage: true });
    await page.fill('input[type=email][name=email]', email);
    await page.fill('input[type=password][name=password]', password);
    await page.click('form [type=submit]');

    await page.waitForURL(`${context.suite.baseUrl}/ui/consent?**`);
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'consent-page.png'), fullPage: true });
    await expect(page.getByRole('button', { name: 'Deny' }).count()).resolves.toBe(1);
    await page.getByRole('button', { name: 'Allow' }).click();

    const result = await readResult(page);
    expect(result.sub).toBe(userId);
    expect(result.idTokenClaims).toMatchObject({
      iss: context.suite.baseUrl,
      aud: clientId,
      sub: userId,
      auth_time: expect.any(Number),
      nonce: expect.any(String),
      // interface.md 2.5: under the email scope, whatever its verification state.
      email,
      email_verified: false,
    });
    // interface.md 4.3: no verified email attribute yet, so neither key (never null).
    expect(result.userInfo).toEqual({ sub: userId });
    expect(result.scope).toBe('openid email');
    // docs/decisions.md #7: the client holds the refresh_token grant.
    expect(result.hasRefreshToken).toBe(true);
  });

  it('goes straight back to the relying party once signed in and consented', async () => {
    const page = await session.newPage();
    await page.goto(`${party.origin}/start`);
    const result = await readResult(page);
    expect(result.sub).toBe(userId);
    await session.close();
  });
});
