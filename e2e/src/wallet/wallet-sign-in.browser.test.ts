import { join } from 'node:path';
import { openTestPool } from '@authz/shared/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/clients.js';
import { useSuite } from '../support/use-suite.js';
import { TestWallet } from '../support/test-wallet.js';
import { createWalletFixture } from '../support/wallet-test-setup.js';
import { decodeQrCode } from './wallet-page-reader.js';
import { ARTIFACTS_DIR, launchChromium } from '../support/chromium.js';
import { RelyingParty, type SignInResult } from '../support/relying-party.js';

// interface.md 4.5 wallet pages driven in Chromium, as a person with a wallet on a phone would: link a
// wallet to the account, then sign in to a relying party by scanning the QR code. The pages
// have no script: the waiting screen reloads itself (meta refresh) until the wallet answers.
const fixture = await createWalletFixture();
const context = useSuite({ serviceEnv: fixture.serviceEnv, gatewayEnv: fixture.gatewayEnv });
const password = 'amber-Falcon-meadow-27';
const email = `wallet-browser-${Date.now()}@example.com`;

let browser: Browser;
let party: RelyingParty;
let wallet: TestWallet;
let userId: string;

beforeAll(async () => {
  const { suite } = context;
  party = await RelyingParty.start();
  userId = (await call<{ id: string }>(suite, 'POST', '/auth/register', { body: { email, password } })).body
    .id;
  const login = await call<{ access_token: string }>(suite, 'POST', '/auth/login', {
    body: { email, password },
  });
  const created = await call<{ clientId: string; clientSecret: string }>(suite, 'POST', '/api/clients/', {
    token: login.body.access_token,
    body: {
      name: 'Wallet browser test app',
      redirectUris: [party.redirectUri],
      scopes: ['openid', 'email'],
      tokenEndpointAuthMethod: 'client_secret_basic',
    },
  });
  await party.configure(suite.baseUrl, created.body.clientId, created.body.clientSecret);
  wallet = await TestWallet.create(fixture.issuer, {
    sub: 'browser-subject',
    email: 'holder@wallet.example',
  });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await party?.close();
  fixture.removeFiles();
});

/**
 * What the waiting screen shows, checked as the user sees it: a QR image that loaded (the CSP
 * allows data: images) and reads back as the deep link's invocation URI.
 */
async function scanWaitingScreen(page: Page): Promise<string> {
  const image = page.getByRole('img', { name: /QR code/ });
  const source = (await image.getAttribute('src')) ?? '';
  expect(source).toMatch(/^data:image\/png;base64,/);
  expect(
    await image.evaluate((element) => (element as unknown as { naturalWidth: number }).naturalWidth),
  ).toBeGreaterThan(0);
  const deepLink =
    (await page.getByRole('link', { name: 'open your wallet app' }).getAttribute('href')) ?? '';
  expect(deepLink).toMatch(/^openid4vp:\/\/\?/);
  expect(decodeQrCode(source)).toBe(deepLink);
  await expect(page.getByLabel('Wallet request, to copy into your wallet').inputValue()).resolves.toBe(
    deepLink,
  );
  return deepLink;
}

describe('wallet pages in a browser', () => {
  it('links a wallet to the signed-in account', async () => {
    const session = await browser.newContext();
    const page = await session.newPage();
    await page.goto(`${context.suite.baseUrl}/ui/login`);
    await page.fill('input[type=email][name=email]', email);
    await page.fill('input[type=password][name=password]', password);
    await page.click('form [type=submit]');
    await page.getByRole('heading', { name: 'You are signed in' }).waitFor();

    await page.goto(`${context.suite.baseUrl}/ui/wallet-link`);
    await page.getByRole('button', { name: 'Link a wallet' }).click();
    const invocation = await scanWaitingScreen(page);
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'wallet-link-qr.png'), fullPage: true });

    expect((await wallet.respond(invocation)).status).toBe(200);
    // The page reloads itself until the wallet's answer is there, shown for confirmation
    // (docs/wallet.md #16); only the confirmation links.
    await page.getByRole('heading', { name: 'Is this your wallet credential?' }).waitFor({ timeout: 15_000 });
    await expect(page.locator('dd[data-presented="email"]').textContent()).resolves.toBe(
      'holder@wallet.example',
    );
    await page.getByRole('button', { name: 'Link this credential' }).click();
    await page.getByRole('heading', { name: 'Wallet linked' }).waitFor();
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'wallet-linked.png'), fullPage: true });
    await session.close();
  });

  it('signs in to a relying party by scanning the QR code of the sign-in page’s wallet option', async () => {
    const session = await browser.newContext();
    const page = await session.newPage();
    await page.goto(`${party.origin}/start`);
    await page.waitForURL(`${context.suite.baseUrl}/ui/login?**`);
    await page.getByRole('link', { name: 'Sign in with a wallet instead' }).click();
    await page.waitForURL(`${context.suite.baseUrl}/ui/wallet-login?handle=**`);
    await page.getByRole('button', { name: 'Continue with a wallet' }).click();
    const invocation = await scanWaitingScreen(page);
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'wallet-sign-in-qr.png'), fullPage: true });

    expect((await wallet.respond(invocation)).status).toBe(200);
    // The waiting screen reloads to the status poll, which shows the credential; confirming it
    // signs in and resumes the authorization.
    await page.getByRole('heading', { name: 'Is this your wallet credential?' }).waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Sign in with this credential' }).click();
    await page.waitForURL(`${context.suite.baseUrl}/ui/consent?**`, { timeout: 15_000 });
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(`${party.origin}/callback**`);
    const result = JSON.parse((await page.textContent('#result')) ?? 'null') as SignInResult;
    expect(result.sub).toBe(userId);
    expect(result.idTokenClaims).toMatchObject({ iss: context.suite.baseUrl, sub: userId });
    await session.close();
  });

  it('shows a credential posted by whoever saw the QR code, and links nothing when refused (docs/wallet.md #16)', async () => {
    const session = await browser.newContext();
    const page = await session.newPage();
    await page.goto(`${context.suite.baseUrl}/ui/login`);
    await page.fill('input[type=email][name=email]', email);
    await page.fill('input[type=password][name=password]', password);
    await page.click('form [type=submit]');
    await page.getByRole('heading', { name: 'You are signed in' }).waitFor();
    await page.goto(`${context.suite.baseUrl}/ui/wallet-link`);
    await page.getByRole('button', { name: 'Link a wallet' }).click();
    const invocation = await scanWaitingScreen(page);
    // docs/wallet.md #17: the page's address names the flow, not the request_uri's handle.
    const transport = new URL(invocation).searchParams.get('request_uri')!.split('/').at(-1)!;
    expect(page.url()).not.toContain(transport);

    const intruder = await TestWallet.create(fixture.issuer, {
      sub: 'intruder-subject',
      email: 'intruder@attacker.example',
    });
    expect((await intruder.respond(invocation)).status).toBe(200);
    await page.getByRole('heading', { name: 'Is this your wallet credential?' }).waitFor({ timeout: 15_000 });
    expect(page.url()).not.toContain(transport);
    await expect(page.locator('dd[data-presented="issuer"]').textContent()).resolves.toBe(
      'https://issuer.example',
    );
    await expect(page.locator('dd[data-presented="email"]').textContent()).resolves.toBe(
      'intruder@attacker.example',
    );
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'wallet-link-confirm.png'), fullPage: true });
    await page.getByRole('button', { name: 'Cancel, this is not mine' }).click();
    await page.getByRole('heading', { name: 'Linking cancelled' }).waitFor();
    const sql = openTestPool(context.databaseUrl, 1);
    try {
      const { rows } = await sql.query('SELECT email FROM identity.wallet_credentials WHERE user_id = $1', [
        userId,
      ]);
      expect(rows).toEqual([{ email: 'holder@wallet.example' }]);
    } finally {
      await sql.end();
    }
    await session.close();
  });
});
