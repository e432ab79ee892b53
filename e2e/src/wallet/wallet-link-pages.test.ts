import { openTestPool } from '@authz/shared/testing';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  INVALID_CSRF,
  loginFields,
  newUser,
  openLoginForm,
  useCodeFlow,
  type TestUser,
} from '../support/code-flow.js';
import { parseForms, FormBrowser } from '@authz/shared/testing/form-browser';
import { postForm, TestWallet } from '../support/test-wallet.js';
import { createWalletFixture } from '../support/wallet-test-setup.js';
import { confirmOnPage, signInWithPassword, startWalletLink } from './wallet-page-flows.js';
import { headingOf, readWaitingScreen } from './wallet-page-reader.js';

// interface.md 4.5 wallet-link pages and the interface.md 3 statuses (docs/hosted-pages.md #21;
// docs/decisions.md #17-19) end to end through the gateway with a test wallet.
const fixture = await createWalletFixture();
const flow = useCodeFlow(fixture.gatewayEnv, fixture.serviceEnv);
let base: string;
let sql: pg.Pool;
let alice: TestUser;
let bob: TestUser;
let aliceBrowser: FormBrowser;
let bobBrowser: FormBrowser;

const BINDER = '__Host-service_wallet_binder';
const REFUSAL_HEADING = 'This wallet request cannot be used';

beforeAll(async () => {
  base = flow.suite.baseUrl;
  sql = openTestPool(flow.databaseUrl, 2);
  [alice, bob] = await Promise.all([newUser(flow), newUser(flow)]);
  aliceBrowser = new FormBrowser();
  bobBrowser = new FormBrowser();
  await signInWithPassword(base, aliceBrowser, alice);
  await signInWithPassword(base, bobBrowser, bob);
});
afterAll(async () => {
  await sql?.end();
  fixture.removeFiles();
});

async function linkedIssuers(user: TestUser): Promise<string[]> {
  const { rows } = await sql.query<{ issuer: string }>(
    'SELECT issuer FROM identity.wallet_credentials WHERE user_id = $1 ORDER BY created_at',
    [user.id],
  );
  return rows.map((row) => row.issuer);
}

/** The outcome screen's status and sentence (consent-ui wallet-link-page.ts). */
function outcomeOf(text: string): { status: string; message: string } | undefined {
  const match = /<p role="status" data-status="([a-z]+)">([^<]*)<\/p>/.exec(text);
  return match ? { status: match[1]!, message: match[2]! } : undefined;
}

describe('GET /ui/wallet-link', () => {
  it('asks a browser without a session to sign in, and the sign-in comes back here', async () => {
    const browser = new FormBrowser();
    const page = await browser.get(`${base}/ui/wallet-link`);
    expect(page.status).toBe(401);
    expect(headingOf(page)).toBe('You are not signed in');
    expect(page.text).toContain('<a href="/ui/login?next=wallet-link">Sign in</a>');
    const form = await openLoginForm(browser, `${base}/ui/login?next=wallet-link`);
    expect(form.hidden).toContainEqual(['next', 'wallet-link']);
    const signedIn = await browser.post(form.action, loginFields(form, alice));
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe('/ui/wallet-link');
    expect(headingOf(await browser.get(`${base}/ui/wallet-link`))).toBe('Link a wallet to your account');
    // Signed in already: straight on.
    const again = await browser.get(`${base}/ui/login?next=wallet-link`);
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toBe('/ui/wallet-link');
  });

  it('goes nowhere but our own named pages after a sign-in (no open redirect)', async () => {
    for (const next of ['https://evil.example/', '//evil.example', '/ui/consent', 'WALLET-LINK']) {
      const browser = new FormBrowser();
      const url = `${base}/ui/login?next=${encodeURIComponent(next)}`;
      const form = await openLoginForm(browser, url);
      expect(form.hidden.map(([name]) => name)).not.toContain('next');
      const tampered = await browser.post(form.action, [...loginFields(form, alice), ['next', next]]);
      expect(tampered.status, next).toBe(303);
      expect(tampered.headers.get('location'), next).toBe('/ui/login');
    }
  });

  it('shows the confirmation with the session’s CSRF token in the form (docs/decisions.md #17)', async () => {
    const page = await aliceBrowser.get(`${base}/ui/wallet-link`);
    expect(page.status).toBe(200);
    expect(headingOf(page)).toBe('Link a wallet to your account');
    expect(page.text).toContain(`You are signed in as <strong>${alice.email}</strong>.`);
    const consents = await aliceBrowser.get(`${base}/consents/`);
    const { csrfToken } = JSON.parse(consents.text) as { csrfToken: string };
    const [form, ...others] = parseForms(page.text, `${base}/ui/wallet-link`);
    expect(others).toEqual([]);
    expect(form).toMatchObject({ action: `${base}/ui/wallet-link`, method: 'POST' });
    expect(form!.hidden).toEqual([['csrf_token', csrfToken]]);
  });
});

describe('POST /ui/wallet-link', () => {
  it('refuses a missing or foreign CSRF token, and a browser without a session', async () => {
    const bobToken = JSON.parse((await bobBrowser.get(`${base}/consents/`)).text).csrfToken as string;
    for (const fields of [[], [['csrf_token', bobToken]]] as [string, string][][]) {
      const refused = await aliceBrowser.post(`${base}/ui/wallet-link`, fields);
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.text)).toEqual(INVALID_CSRF);
      expect(refused.setCookies).toEqual([]);
    }
    const signedOut = await new FormBrowser().post(`${base}/ui/wallet-link`, [['csrf_token', bobToken]]);
    expect(signedOut.status).toBe(401);
    expect(headingOf(signedOut)).toBe('You are not signed in');
  });

  it('starts a link: the QR code and deep link of the invocation URI, polling the outcome page', async () => {
    const { screen, handle, page } = await startWalletLink(base, aliceBrowser);
    expect(page.setCookies.map((cookie) => cookie.split('=')[0])).toEqual([
      BINDER,
      '__Host-service_wallet_invocation',
    ]);
    expect(screen.qrText).toBe(screen.copyText);
    expect(screen.deepLink).toBe(screen.copyText);
    expect(new URL(screen.copyText!).searchParams.get('request_uri')).toBe(
      `${base}/oid4vp/request/${handle}`,
    );
    // docs/wallet.md #17: the page is named by the flow id, never by the request_uri handle.
    expect(screen.refresh).toEqual({
      seconds: 3,
      url: expect.stringMatching(new RegExp(`^${base}/ui/wallet-link/[A-Za-z0-9_-]{43}$`)),
    });
    expect(screen.refresh.url).not.toContain(handle);
  });
});

describe('GET /ui/wallet-link/{handle}', () => {
  it('waits, shows the presented credential, then linked once confirmed, stored against the signed-in user', async () => {
    const wallet = await TestWallet.create(fixture.issuer, {
      sub: 'alice-subject',
      email: 'a@wallet.example',
    });
    const { screen } = await startWalletLink(base, aliceBrowser);
    const outcomeUrl = screen.refresh.url;
    expect(readWaitingScreen(await aliceBrowser.get(outcomeUrl), outcomeUrl)).toEqual(screen);
    expect(await linkedIssuers(alice)).toEqual([]);

    expect((await wallet.respond(screen.copyText!)).status).toBe(200);
    const shown = await aliceBrowser.get(outcomeUrl);
    expect(headingOf(shown)).toBe('Is this your wallet credential?');
    expect(shown.text).toContain('<dd data-presented="email">a@wallet.example</dd>');
    expect(await linkedIssuers(alice)).toEqual([]);
    const linked = await confirmOnPage(aliceBrowser, shown, outcomeUrl);
    expect(linked.status).toBe(200);
    expect(headingOf(linked)).toBe('Wallet linked');
    expect(outcomeOf(linked.text)).toEqual({
      status: 'linked',
      message: 'The wallet credential is linked to your account.',
    });
    expect(linked.text).not.toContain('http-equiv="refresh"');
    expect(await linkedIssuers(alice)).toEqual([fixture.issuer.issuer]);
    // Read again, the settled status stays.
    expect(outcomeOf((await aliceBrowser.get(outcomeUrl)).text)?.status).toBe('linked');
  });

  it('shows conflict when the credential is another account’s, and links nothing', async () => {
    const wallet = await TestWallet.create(fixture.issuer, { sub: 'shared-subject' });
    const first = await startWalletLink(base, aliceBrowser);
    await wallet.respond(first.screen.copyText!);
    const firstUrl = first.screen.refresh.url;
    expect(
      outcomeOf((await confirmOnPage(aliceBrowser, await aliceBrowser.get(firstUrl), firstUrl)).text)?.status,
    ).toBe('linked');
    const before = await linkedIssuers(bob);

    const { screen } = await startWalletLink(base, bobBrowser);
    await wallet.respond(screen.copyText!);
    const conflict = await confirmOnPage(
      bobBrowser,
      await bobBrowser.get(screen.refresh.url),
      screen.refresh.url,
    );
    expect(conflict.status).toBe(200);
    expect(headingOf(conflict)).toBe('Wallet already linked');
    expect(outcomeOf(conflict.text)).toEqual({
      status: 'conflict',
      message: 'This wallet credential is already linked to another account.',
    });
    expect(await linkedIssuers(bob)).toEqual(before);
  });

  it('shows rejected when the wallet declines or the presentation does not verify', async () => {
    const wallet = await TestWallet.create(fixture.untrusted, { sub: 'someone' });
    const declined = await startWalletLink(base, aliceBrowser);
    const request = await wallet.receive(declined.screen.copyText!);
    const posted = await postForm(
      request.responseUri,
      new URLSearchParams({ state: request.state, error: 'access_denied' }),
    );
    expect(posted.status).toBe(200);
    const untrusted = await startWalletLink(base, bobBrowser);
    await wallet.respond(untrusted.screen.copyText!);
    for (const [browser, started] of [
      [aliceBrowser, declined],
      [bobBrowser, untrusted],
    ] as const) {
      const page = await browser.get(started.screen.refresh.url);
      expect(headingOf(page)).toBe('Wallet not accepted');
      expect(outcomeOf(page.text)).toEqual({
        status: 'rejected',
        message: 'The wallet presentation was not accepted.',
      });
    }
  });

  it('is the uniform refusal without the binder cookie or for another user’s session', async () => {
    const { screen } = await startWalletLink(base, aliceBrowser);
    const binder = aliceBrowser.jar.get(BINDER)!;
    // Bob's session with Alice's binder cookie: the flow is not his.
    const bobWithBinder = new FormBrowser();
    bobWithBinder.jar.set('__Host-service_session', bobBrowser.jar.get('__Host-service_session')!);
    bobWithBinder.jar.set(BINDER, binder);
    const aliceWithoutBinder = new FormBrowser();
    aliceWithoutBinder.jar.set('__Host-service_session', aliceBrowser.jar.get('__Host-service_session')!);
    const refusals = [
      await bobWithBinder.get(screen.refresh.url),
      await aliceWithoutBinder.get(screen.refresh.url),
      await aliceBrowser.get(`${base}/ui/wallet-link/${'A'.repeat(43)}`),
    ];
    expect(new Set(refusals.map((refusal) => refusal.text)).size).toBe(1);
    for (const refusal of refusals) {
      expect(refusal.status).toBe(400);
      expect(headingOf(refusal)).toBe(REFUSAL_HEADING);
    }
    const signedOut = await new FormBrowser().get(screen.refresh.url);
    expect(signedOut.status).toBe(401);
    // None of it disturbed the flow: Alice's browser still waits on it.
    expect((await aliceBrowser.get(screen.refresh.url)).text).toContain('Waiting for your wallet');
  });
});
