import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { querySql, signUp } from '../support/accounts.js';
import { launchChromium } from '../support/chromium.js';
import { heading, passUpstream } from './federation-pages.js';
import { providerEntry, useFederation } from './federation-setup.js';

// interface.md 4.14 on the account page in Chromium: linking and unlinking upstream identities,
// never the account's last sign-in method (docs/federation.md #9).
const context = useFederation(({ real }) => [
  providerEntry(real, { id: 'upstream', displayName: 'Upstream ID', trustEmail: true, createAccounts: true }),
  providerEntry(real, { id: 'second', displayName: 'Second ID', trustEmail: true, createAccounts: false }),
]);

let browser: Browser;
let session: BrowserContext;
let page: Page;
const login = `member-${Date.now()}`;
const email = `mailbox-${Date.now()}@upstream.example`;

beforeAll(async () => {
  browser = await launchChromium();
  context.upstreams.real.users.set(login, { email, email_verified: true });
  session = await browser.newContext();
  page = await session.newPage();
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

const identities = () =>
  querySql<{ id: string; provider_id: string; user_id: string }>(
    context.databaseUrl,
    `SELECT f.id, f.provider_id, f.user_id FROM identity.federated_credentials f
       JOIN identity.users u ON u.id = f.user_id WHERE u.email = $1 ORDER BY f.created_at`,
    [email],
  );

const unlinkButtons = () => page.getByRole('button', { name: /^Unlink/ }).count();

describe('sign-in methods on /ui/account', () => {
  it('signs in without an authorization request, creating the account with the trusted address', async () => {
    await page.goto(context.url('/ui/login'));
    await page.getByRole('link', { name: 'Continue with Upstream ID' }).click();
    await passUpstream(page, context.upstreams.real.issuer, login);
    await page.waitForURL(context.url('/ui/login'));
    expect(await heading(page)).toBe('You are signed in');
    const users = await querySql<{ email_verified: boolean }>(
      context.databaseUrl,
      `SELECT email_verified FROM identity.users WHERE email = $1`,
      [email],
    );
    expect(users).toEqual([{ email_verified: true }]);
  });

  it('refuses to unlink the only sign-in method, on the page and when posted anyway', async () => {
    await page.goto(context.url('/ui/account'));
    await expect(page.getByText('Your only way to sign in: it cannot be unlinked.').count()).resolves.toBe(1);
    expect(await unlinkButtons()).toBe(0);
    const [only] = await identities();
    const csrfToken = await page.locator('input[name=csrf_token]').first().inputValue();
    const forced = await session.request.post(context.url('/ui/account/federation/unlink'), {
      form: { csrf_token: csrfToken, identity_id: only!.id },
      maxRedirects: 0,
    });
    expect(forced.status()).toBe(409);
    expect(await identities()).toHaveLength(1);
    // Without the session's CSRF token nothing is looked at.
    const forged = await session.request.post(context.url('/ui/account/federation/unlink'), {
      form: { csrf_token: 'f'.repeat(64), identity_id: only!.id },
      maxRedirects: 0,
    });
    expect(forged.status()).toBe(400);
    expect(await forged.json()).toEqual({
      error: 'invalid_csrf_token',
      statusCode: 400,
      code: 'INVALID_CSRF_TOKEN',
    });
  });

  it('links a second upstream identity, then unlinks it, but not the last one left', async () => {
    await page.goto(context.url('/ui/account'));
    await page.getByRole('button', { name: 'Link Second ID' }).click();
    await expect(heading(page)).resolves.toBe('Link Second ID');
    await page.getByRole('link', { name: 'Continue to Second ID' }).click();
    await passUpstream(page, context.upstreams.real.issuer, login);
    await page.waitForURL(context.url('/ui/account?done=upstream-linked'));
    await expect(page.getByText('The sign-in method was linked to your account.').count()).resolves.toBe(1);
    expect((await identities()).map(({ provider_id }) => provider_id)).toEqual(['upstream', 'second']);
    expect(await unlinkButtons()).toBe(2);

    await page.getByRole('button', { name: 'Unlink Second ID' }).click();
    await page.waitForURL(context.url('/ui/account?done=upstream-unlinked'));
    expect((await identities()).map(({ provider_id }) => provider_id)).toEqual(['upstream']);
    expect(await unlinkButtons()).toBe(0);

    const userId = (await identities())[0]!.user_id;
    const audited = await querySql<{ type: string; details: unknown }>(
      context.databaseUrl,
      `SELECT type, details FROM identity.audit_events
        WHERE actor_user_id = $1 AND type LIKE 'federated_identity_%' ORDER BY id`,
      [userId],
    );
    expect(audited).toEqual([
      { type: 'federated_identity_linked', details: { provider: 'oidc_upstream' } },
      { type: 'federated_identity_linked', details: { provider: 'oidc_second' } },
      { type: 'federated_identity_unlinked', details: { provider: 'oidc_second' } },
    ]);
  });

  it('links nothing when another account holds the upstream identity', async () => {
    const other = await signUp(context.suite, 'other');
    const browserOfOther = await browser.newContext();
    const otherPage = await browserOfOther.newPage();
    await otherPage.goto(context.url('/ui/login?next=account'));
    await otherPage.fill('input[type=email][name=email]', other.email);
    await otherPage.fill('input[type=password][name=password]', other.password);
    await otherPage.getByRole('button', { name: 'Sign in' }).click();
    await otherPage.waitForURL(context.url('/ui/account'));
    await otherPage.getByRole('button', { name: 'Link Upstream ID' }).click();
    await otherPage.getByRole('link', { name: 'Continue to Upstream ID' }).click();
    const answer = otherPage.waitForResponse((response) =>
      response.url().includes('/ui/federation/callback'),
    );
    await passUpstream(otherPage, context.upstreams.real.issuer, login);
    expect((await answer).status()).toBe(409);
    expect(await heading(otherPage)).toBe('That sign-in is linked to another account');
    await browserOfOther.close();
    const held = await querySql(
      context.databaseUrl,
      `SELECT f.id FROM identity.federated_credentials f WHERE f.user_id = $1`,
      [other.userId],
    );
    expect(held).toEqual([]);
  });

  it('asks a session signed in more than five minutes ago to sign in again before linking', async () => {
    const userId = (await identities())[0]!.user_id;
    await querySql(
      context.databaseUrl,
      `UPDATE identity.sessions SET auth_time = now() - interval '6 minutes' WHERE user_id = $1`,
      [userId],
    );
    await page.goto(context.url('/ui/account'));
    const answer = page.waitForResponse((response) => response.request().method() === 'POST');
    await page.getByRole('button', { name: 'Link Second ID' }).click();
    expect((await answer).status()).toBe(401);
    expect(await heading(page)).toBe('Sign in again');
    expect((await identities()).map(({ provider_id }) => provider_id)).toEqual(['upstream']);
  });
});
