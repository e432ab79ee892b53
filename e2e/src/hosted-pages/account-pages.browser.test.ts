import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCOUNT_PASSWORD,
  accountCall,
  refreshFirstParty,
  rowsMentioning,
  signIn,
  signUp,
} from '../support/accounts.js';
import { ARTIFACTS_DIR, launchChromium } from '../support/chromium.js';
import { RelyingParty } from '../support/relying-party.js';
import { useSuite } from '../support/use-suite.js';

// interface.md 4.10 hosted pages in Chromium: sign-up from the sign-in page during an authorization,
// and every action of the account page, without JavaScript.
const context = useSuite();

let browser: Browser;
let party: RelyingParty;
let clientId: string;

beforeAll(async () => {
  const { suite } = context;
  party = await RelyingParty.start();
  const developer = await signIn(suite, await signUp(suite, 'rp-owner'));
  const created = await accountCall<{ clientId: string; clientSecret: string }>(
    suite,
    'POST',
    '/api/clients/',
    {
      token: developer.accessToken,
      body: {
        name: 'Sign-up test app',
        redirectUris: [party.redirectUri],
        scopes: ['openid', 'email'],
        tokenEndpointAuthMethod: 'client_secret_basic',
      },
    },
  );
  clientId = created.body.clientId;
  await party.configure(suite.baseUrl, clientId, created.body.clientSecret);
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await party?.close();
});

let sequence = 0;
const newEmail = (prefix: string) => `${prefix}-${Date.now()}-${(sequence += 1)}@example.com`;

async function signInOnPage(page: Page, email: string, password: string): Promise<void> {
  await page.fill('input[type=email][name=email]', email);
  await page.fill('input[type=password][name=password]', password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe('/ui/register', () => {
  it('signs up from the sign-in page during an authorization, which then resumes to the client with a code', async () => {
    const session = await browser.newContext();
    const page = await session.newPage();
    await page.goto(`${party.origin}/start`);
    await page.waitForURL(`${context.suite.baseUrl}/ui/login?**`);

    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL(`${context.suite.baseUrl}/ui/register?handle=**`);
    await expect(page.locator('h1').textContent()).resolves.toBe(
      'Create an account to continue to Sign-up test app',
    );
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'register-page.png'), fullPage: true });

    // A weak password first: the form again, the address kept, the rule named at the field.
    const email = newEmail('signup');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('password1');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.locator('#password-error').textContent()).resolves.toBe('Password is too common.');
    await expect(page.getByLabel('Email').inputValue()).resolves.toBe(email);

    await page.getByLabel('Password').fill(ACCOUNT_PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`${context.suite.baseUrl}/ui/consent?**`);
    await page.getByRole('button', { name: 'Allow' }).click();

    await page.waitForURL(`${party.origin}/callback**`);
    const result = JSON.parse((await page.textContent('#result')) ?? 'null') as {
      sub: string;
      idTokenClaims: Record<string, unknown>;
    };
    expect(result.idTokenClaims).toMatchObject({ iss: context.suite.baseUrl, aud: clientId, email });
    // The new account is a real one: it signs in through the JSON API too.
    const login = await signIn(context.suite, { email, password: ACCOUNT_PASSWORD });
    const me = await accountCall<{ id: string }>(context.suite, 'GET', '/auth/me', {
      token: login.accessToken,
    });
    expect(me.body.id).toBe(result.sub);
    await session.close();
  });
});

describe('/ui/account', () => {
  it('sends a browser without a session to sign in, and back to the account page', async () => {
    const user = await signUp(context.suite, 'account-page');
    const session = await browser.newContext();
    const page = await session.newPage();
    await page.goto(`${context.suite.baseUrl}/ui/account`);
    await page.waitForURL(`${context.suite.baseUrl}/ui/login?next=account`);
    await signInOnPage(page, user.email, user.password);
    await page.waitForURL(`${context.suite.baseUrl}/ui/account`);
    await expect(page.locator('h1').textContent()).resolves.toBe('Your account');
    await expect(page.getByText(`Email: ${user.email} (not verified)`).count()).resolves.toBe(1);
    await expect(page.getByRole('link', { name: 'Change password' }).getAttribute('href')).resolves.toBe(
      '/ui/account/password',
    );
    await expect(page.getByRole('link', { name: 'Change email' }).getAttribute('href')).resolves.toBe(
      '/ui/account/email',
    );
    await session.close();
  });

  it('saves the name, signs out another session, and deletes the account with the password', async () => {
    const user = await signUp(context.suite, 'account-actions');
    const other = await signIn(context.suite, user, 'OtherDevice/1.0');
    const session = await browser.newContext({ userAgent: 'AccountPageBrowser/1.0' });
    const page = await session.newPage();
    await page.goto(`${context.suite.baseUrl}/ui/login?next=account`);
    await signInOnPage(page, user.email, user.password);
    await page.waitForURL(`${context.suite.baseUrl}/ui/account`);

    // The name.
    await page.getByLabel('Name').fill('Ada Lovelace');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.waitForURL(`${context.suite.baseUrl}/ui/account?done=name`);
    await expect(page.getByRole('status').textContent()).resolves.toBe('Your name was saved.');
    await expect(page.getByLabel('Name').inputValue()).resolves.toBe('Ada Lovelace');
    const me = await accountCall<{ name: string }>(context.suite, 'GET', '/auth/me', {
      token: other.accessToken,
    });
    expect(me.body.name).toBe('Ada Lovelace');

    // The sessions: this browser and the JSON API sign-in, each with its own button.
    const items = page.locator('ul.sessions > li');
    await expect(items.count()).resolves.toBe(2);
    await expect(items.nth(0).textContent()).resolves.toContain('OtherDevice/1.0');
    await expect(items.nth(1).textContent()).resolves.toContain('AccountPageBrowser/1.0');
    await expect(items.nth(1).textContent()).resolves.toContain('This browser');
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'account-page.png'), fullPage: true });
    await items
      .nth(0)
      .getByRole('button', { name: /^Sign out/ })
      .click();
    await page.waitForURL(`${context.suite.baseUrl}/ui/account?done=session-ended`);
    await expect(page.getByRole('status').textContent()).resolves.toBe('That session was signed out.');
    await expect(page.locator('ul.sessions > li').count()).resolves.toBe(1);
    expect((await refreshFirstParty(context.suite, other.refreshToken)).status).toBe(400);
    expect((await accountCall(context.suite, 'GET', '/auth/me', { token: other.accessToken })).status).toBe(
      401,
    );

    // Deletion: a wrong password changes nothing, the right one deletes everything.
    await page.getByLabel('Password', { exact: true }).fill('not-the-Password-99');
    await page.getByRole('button', { name: 'Delete account' }).click();
    await expect(page.locator('#delete-error').textContent()).resolves.toBe(
      'The password is incorrect. Your account was not deleted.',
    );
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Delete account' }).click();
    await expect(page.locator('h1').textContent()).resolves.toBe('Your account has been deleted');
    expect(await rowsMentioning(context.databaseUrl, [user.userId, user.email])).toEqual([]);
    const cookies = await session.cookies();
    expect(cookies.find(({ name }) => name === '__Host-service_session')).toBeUndefined();
    await page.goto(`${context.suite.baseUrl}/ui/account`);
    await page.waitForURL(`${context.suite.baseUrl}/ui/login?next=account`);
    await session.close();
  });

  it('signs this browser out with the sign-out button', async () => {
    const user = await signUp(context.suite, 'account-signout');
    const session = await browser.newContext();
    const page = await session.newPage();
    await page.goto(`${context.suite.baseUrl}/ui/login?next=account`);
    await signInOnPage(page, user.email, user.password);
    await page.waitForURL(`${context.suite.baseUrl}/ui/account`);
    await page.locator('section[aria-labelledby=sessions-heading] > form button').click();
    await page.waitForURL(`${context.suite.baseUrl}/ui/login`);
    await page.goto(`${context.suite.baseUrl}/ui/account`);
    await page.waitForURL(`${context.suite.baseUrl}/ui/login?next=account`);
    const api = await signIn(context.suite, user);
    const listed = await accountCall<{ sessions: unknown[] }>(context.suite, 'GET', '/auth/sessions', {
      token: api.accessToken,
    });
    expect(listed.body.sessions).toHaveLength(1);
    await session.close();
  });
});
