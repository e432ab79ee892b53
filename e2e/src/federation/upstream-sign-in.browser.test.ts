import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountCall, querySql, signIn, signUp } from '../support/accounts.js';
import { launchChromium } from '../support/chromium.js';
import type { UpstreamFault } from '../support/hostile-upstream.js';
import { RelyingParty, type SignInResult } from '../support/relying-party.js';
import { providerEntry, useFederation } from './federation-setup.js';
import { heading, passUpstream } from './federation-pages.js';

// interface.md 4.14, docs/federation.md: sign-in with upstream OpenID Providers in Chromium, at an
// authorization request of a relying party on loopback. The upstream is node-oidc-provider;
// the faults a real provider never commits come from a small hostile one built with jose.
const context = useFederation(({ real, hostile }) => [
  providerEntry(real, { id: 'upstream', displayName: 'Upstream ID', trustEmail: true, createAccounts: true }),
  // The same upstream under stricter rules: no accounts made, no address trusted.
  providerEntry(real, { id: 'strict', displayName: 'Strict ID' }),
  providerEntry(hostile, {
    id: 'hostile',
    displayName: 'Hostile ID',
    trustEmail: true,
    createAccounts: true,
  }),
  // Left out at start-up (docs/federation.md #3): a bad id, and no secret at all.
  { id: 'Not An Id', displayName: 'Broken', issuer: real.issuer, clientId: 'x', clientSecret: 'y' },
  { id: 'secretless', displayName: 'Secretless', issuer: real.issuer, clientId: 'x' },
]);

let browser: Browser;
let party: RelyingParty;

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
        name: 'Federation test app',
        redirectUris: [party.redirectUri],
        scopes: ['openid', 'email'],
        tokenEndpointAuthMethod: 'client_secret_basic',
      },
    },
  );
  await party.configure(suite.baseUrl, created.body.clientId, created.body.clientSecret);
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await party?.close();
});

let sequence = 0;
const unique = (prefix: string) => `${prefix}-${Date.now()}-${(sequence += 1)}`;

/** From the relying party's start to the hosted sign-in page, then on through `provider`. */
async function authorizeThrough(page: Page, provider: string, login: string): Promise<void> {
  await page.goto(`${party.origin}/start`);
  await page.waitForURL(`${context.suite.baseUrl}/ui/login?**`);
  await page.getByRole('link', { name: `Continue with ${provider}` }).click();
  await passUpstream(page, context.upstreams.real.issuer, login);
}

/** Back at the suite: consent when asked, then the relying party's result. */
async function finishAtRelyingParty(page: Page): Promise<SignInResult> {
  await page.waitForURL(
    (url) => url.href.startsWith(`${party.origin}/callback`) || url.pathname === '/ui/consent',
  );
  if (new URL(page.url()).pathname === '/ui/consent') {
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(`${party.origin}/callback**`);
  }
  return JSON.parse((await page.textContent('#result')) ?? 'null') as SignInResult;
}

const credentialRows = (providerId: string) =>
  querySql<{
    user_id: string;
    issuer: string;
    subject_hash: string;
    email: string | null;
    everything: string;
  }>(
    context.databaseUrl,
    `SELECT user_id, issuer, subject_hash, email, row_to_json(f)::text AS everything
       FROM identity.federated_credentials f WHERE provider_id = $1 ORDER BY created_at`,
    [providerId],
  );

describe('the sign-in page', () => {
  it('offers exactly the valid providers; a left-out entry has no start page', async () => {
    const page = await browser.newPage();
    await page.goto(context.url('/ui/login'));
    const offers = await page.getByRole('link', { name: /^Continue with / }).allTextContents();
    expect(offers).toEqual([
      'Continue with Upstream ID',
      'Continue with Strict ID',
      'Continue with Hostile ID',
    ]);
    const missing = await page.goto(context.url('/ui/federation/secretless/start'));
    expect(missing?.status()).toBe(404);
    await page.close();
  });
});

describe('sign-in through an upstream at an authorization request', () => {
  it('creates the account once and gives the same sub for the same upstream subject', async () => {
    const login = unique('alice');
    // An address apart from the login, so the row can be searched for the subject alone.
    const email = `${unique('mailbox')}@upstream.example`;
    context.upstreams.real.users.set(login, { email, email_verified: true });

    const first = await browser.newContext();
    const page = await first.newPage();
    await authorizeThrough(page, 'Upstream ID', login);
    const result = await finishAtRelyingParty(page);
    expect(result.idTokenClaims).toMatchObject({
      iss: context.suite.baseUrl,
      sub: result.sub,
      email,
      email_verified: true,
    });
    await first.close();

    // A new browser, the same upstream subject: the same account, no second credential.
    const second = await browser.newContext();
    const again = await second.newPage();
    await authorizeThrough(again, 'Upstream ID', login);
    expect((await finishAtRelyingParty(again)).sub).toBe(result.sub);
    await second.close();

    const rows = (await credentialRows('upstream')).filter(({ user_id }) => user_id === result.sub);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ issuer: context.upstreams.real.issuer, email });
    expect(rows[0]!.subject_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]!.everything).not.toContain(login);
  });

  it('creates an account whose address stays unverified when the upstream does not say it is verified', async () => {
    const login = unique('unsure');
    const email = `${unique('mailbox')}@upstream.example`;
    context.upstreams.real.users.set(login, { email, email_verified: false });
    const session = await browser.newContext();
    const page = await session.newPage();
    await authorizeThrough(page, 'Upstream ID', login);
    const result = await finishAtRelyingParty(page);
    await session.close();
    expect(result.idTokenClaims).toMatchObject({ sub: result.sub, email, email_verified: false });
    // No trusted source: UserInfo carries no address (interface.md 4.3).
    expect(result.userInfo).toEqual({ sub: result.sub });
    const rows = (await credentialRows('upstream')).filter(({ user_id }) => user_id === result.sub);
    expect(rows.map(({ email: kept }) => kept)).toEqual([null]);
  });

  it('joins an existing account by email only when the upstream says email_verified: true', async () => {
    const account = await signUp(context.suite, 'joiner');
    await querySql(context.databaseUrl, `UPDATE identity.users SET email_verified = true WHERE id = $1`, [
      account.userId,
    ]);

    const unverified = unique('joiner-unverified');
    context.upstreams.real.users.set(unverified, { email: account.email, email_verified: false });
    const refused = await browser.newContext();
    const refusedPage = await refused.newPage();
    const answer = refusedPage.waitForResponse((response) =>
      response.url().includes('/ui/federation/callback'),
    );
    await authorizeThrough(refusedPage, 'Upstream ID', unverified);
    expect((await answer).status()).toBe(400);
    expect(await heading(refusedPage)).toBe('The sign-in could not be completed');
    await refused.close();

    const verified = unique('joiner-verified');
    context.upstreams.real.users.set(verified, { email: account.email, email_verified: true });
    const joined = await browser.newContext();
    const joinedPage = await joined.newPage();
    await authorizeThrough(joinedPage, 'Upstream ID', verified);
    const result = await finishAtRelyingParty(joinedPage);
    expect(result.sub).toBe(account.userId);
    await joined.close();
    const rows = (await credentialRows('upstream')).filter(({ user_id }) => user_id === account.userId);
    expect(rows).toHaveLength(1);
  });

  it('refuses an unknown subject at a provider without createAccounts, creating nothing', async () => {
    const login = unique('stranger');
    const email = `${login}@upstream.example`;
    context.upstreams.real.users.set(login, { email, email_verified: true });
    const session = await browser.newContext();
    const page = await session.newPage();
    const answer = page.waitForResponse((response) => response.url().includes('/ui/federation/callback'));
    await authorizeThrough(page, 'Strict ID', login);
    expect((await answer).status()).toBe(400);
    expect(await heading(page)).toBe('The sign-in could not be completed');
    await session.close();
    const users = await querySql(context.databaseUrl, `SELECT id FROM identity.users WHERE email = $1`, [
      email,
    ]);
    expect(users).toEqual([]);
  });
});

describe('a hostile upstream', () => {
  async function signInAtHostile(
    fault: UpstreamFault,
  ): Promise<{ status: number; heading: string | null; url: string }> {
    context.upstreams.hostile.fault = fault;
    const session = await browser.newContext();
    const page = await session.newPage();
    await page.goto(context.url('/ui/login'));
    const answer = page.waitForResponse((response) => response.url().includes('/ui/federation/callback'));
    await page.getByRole('link', { name: 'Continue with Hostile ID' }).click();
    const status = (await answer).status();
    await page.waitForLoadState('domcontentloaded');
    const outcome = { status, heading: await heading(page), url: page.url() };
    await session.close();
    return outcome;
  }

  it('signs in when it behaves (the control), then every fault is the uniform refusal', async () => {
    const control = await signInAtHostile('honest');
    expect(control.status).toBe(302);
    expect(control.heading).toBe('You are signed in');
    expect(await credentialRows('hostile')).toHaveLength(1);

    for (const fault of ['forged-state', 'wrong-iss', 'wrong-nonce', 'foreign-key'] as const) {
      const refused = await signInAtHostile(fault);
      expect({ fault, status: refused.status, heading: refused.heading }).toEqual({
        fault,
        status: 400,
        heading: 'The sign-in could not be completed',
      });
    }
  });

  it('finishes a flow only in the browser that started it, and only once', async () => {
    context.upstreams.hostile.fault = 'honest';
    const starter = await browser.newContext();
    const page = await starter.newPage();
    // The upstream's answer held as a link, to take the callback URL elsewhere first.
    context.upstreams.hostile.holdAnswer = true;
    await page.goto(context.url('/ui/login'));
    await page.getByRole('link', { name: 'Continue with Hostile ID' }).click();
    const callback = (await page.locator('#back').getAttribute('href')) ?? '';
    context.upstreams.hostile.holdAnswer = false;
    expect(new URL(callback).pathname).toBe('/ui/federation/callback');

    const other = await browser.newContext();
    const otherPage = await other.newPage();
    expect((await otherPage.goto(callback))?.status()).toBe(400);
    expect(await heading(otherPage)).toBe('The sign-in could not be completed');
    await other.close();

    // The starting browser still finishes it, once.
    await page.goto(callback);
    expect(await heading(page)).toBe('You are signed in');
    expect((await page.goto(callback))?.status()).toBe(400);
    expect(await heading(page)).toBe('The sign-in could not be completed');
    await starter.close();
  });
});
