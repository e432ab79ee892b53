import { Writable } from 'node:stream';
import { createLogger } from '@authz/shared/logger';
import { openTestPool } from '@authz/shared/testing';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formOf, newUser, submitLogin, useCodeFlow, type TestUser } from '../support/code-flow.js';
import { FormBrowser, type BrowserResponse } from '@authz/shared/testing/form-browser';
import { TestWallet } from '../support/test-wallet.js';
import { createWalletFixture } from '../support/wallet-test-setup.js';
import { signInWithPassword, startWalletLink, startWalletSignIn } from './wallet-page-flows.js';
import { handleOf, headingOf } from './wallet-page-reader.js';

// docs/security.md item 12, finding 1 (docs/wallet.md #16-#20): whoever sees a wallet QR code
// (or its handle) can answer it with their own credential. Nothing is linked and nobody is
// signed in until the browser that started the flow has been shown what was presented and
// confirmed it; handles stay out of page URLs and logs; the same-device response code works
// only in the starting browser, once; a link needs a recent sign-in. Through the gateway.
const lines: string[] = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(chunk.toString('utf8'));
    done();
  },
});
const fixture = await createWalletFixture();
const flow = useCodeFlow(fixture.gatewayEnv, fixture.serviceEnv, {
  logger: createLogger({ service: 'test', level: 'trace', destination: sink }),
});
let base: string;
let sql: pg.Pool;

const CONFIRM_HEADING = 'Is this your wallet credential?';
const REFUSAL_HEADING = 'This wallet request cannot be used';

beforeAll(() => {
  base = flow.suite.baseUrl;
  sql = openTestPool(flow.databaseUrl, 2);
});
afterAll(async () => {
  await sql?.end();
  fixture.removeFiles();
});

async function signedIn(): Promise<{ user: TestUser; browser: FormBrowser }> {
  const user = await newUser(flow);
  const browser = new FormBrowser();
  await signInWithPassword(base, browser, user);
  return { user, browser };
}

async function linkedTo(user: TestUser): Promise<{ issuer: string; email: string | null }[]> {
  const { rows } = await sql.query<{ issuer: string; email: string | null }>(
    'SELECT issuer, email FROM identity.wallet_credentials WHERE user_id = $1 ORDER BY created_at',
    [user.id],
  );
  return rows;
}

/** The confirmation screen: what it says was presented, and its one form's decision buttons. */
function confirmationOf(page: BrowserResponse, url: string) {
  expect(page.status).toBe(200);
  expect(headingOf(page)).toBe(CONFIRM_HEADING);
  expect(page.text).not.toContain('http-equiv="refresh"');
  const issuer = /<dd data-presented="issuer">([^<]*)<\/dd>/.exec(page.text)?.[1];
  const email = /<dd data-presented="email">([^<]*)<\/dd>/.exec(page.text)?.[1];
  const form = formOf(page, url, (candidate) => candidate.method === 'POST');
  expect(form.buttons.map((button) => [button.name, button.value])).toEqual([
    ['decision', 'confirm'],
    ['decision', 'cancel'],
  ]);
  return { issuer, email, form };
}

/** Links `wallet` to the account signed in in `browser`, confirming on the page. */
async function linkConfirmed(browser: FormBrowser, wallet: TestWallet): Promise<void> {
  const { screen } = await startWalletLink(base, browser);
  expect((await wallet.respond(screen.copyText!)).status).toBe(200);
  const { form } = confirmationOf(await browser.get(screen.refresh.url), screen.refresh.url);
  const linked = await browser.post(form.action, [...form.hidden, ['decision', 'confirm']]);
  expect(linked.text).toContain('data-status="linked"');
}

describe('a link answered by whoever saw the QR code', () => {
  it('links nothing until the starting browser confirms; it shows the intruder’s issuer and email, and cancel refuses it', async () => {
    const victim = await signedIn();
    const intruder = await TestWallet.create(fixture.issuer, {
      sub: 'intruder-subject',
      email: 'intruder@attacker.example',
    });
    const { screen } = await startWalletLink(base, victim.browser);
    // The intruder read the QR code off the victim's screen and answers first.
    expect((await intruder.respond(screen.copyText!)).status).toBe(200);

    const page = await victim.browser.get(screen.refresh.url);
    const shown = confirmationOf(page, screen.refresh.url);
    expect(shown.issuer).toBe('https://issuer.example');
    expect(shown.email).toBe('intruder@attacker.example');
    expect(await linkedTo(victim.user)).toEqual([]);
    // Reading it again changes nothing.
    confirmationOf(await victim.browser.get(screen.refresh.url), screen.refresh.url);
    expect(await linkedTo(victim.user)).toEqual([]);

    const cancelled = await victim.browser.post(shown.form.action, [
      ...shown.form.hidden,
      ['decision', 'cancel'],
    ]);
    expect(cancelled.status).toBe(200);
    expect(cancelled.text).toContain('data-status="cancelled"');
    expect(await linkedTo(victim.user)).toEqual([]);
    // A confirm after the cancel, replayed from the same form, links nothing either.
    const late = await victim.browser.post(shown.form.action, [
      ...shown.form.hidden,
      ['decision', 'confirm'],
    ]);
    expect(late.text).toContain('data-status="cancelled"');
    expect(await linkedTo(victim.user)).toEqual([]);
  });

  it('links the credential once the starting browser confirms, with a CSRF-protected form', async () => {
    const owner = await signedIn();
    const other = await signedIn();
    const wallet = await TestWallet.create(fixture.issuer, {
      sub: 'owner-subject',
      email: 'owner@wallet.example',
    });
    const { screen } = await startWalletLink(base, owner.browser);
    await wallet.respond(screen.copyText!);
    const { email, form } = confirmationOf(await owner.browser.get(screen.refresh.url), screen.refresh.url);
    expect(email).toBe('owner@wallet.example');

    // Without the form's token, or from another account's browser: nothing is linked.
    const noToken = await owner.browser.post(form.action, [['decision', 'confirm']]);
    expect(noToken.status).toBe(400);
    const foreign = await other.browser.post(form.action, [...form.hidden, ['decision', 'confirm']]);
    expect(foreign.status).toBe(400);
    expect(await linkedTo(owner.user)).toEqual([]);

    const linked = await owner.browser.post(form.action, [...form.hidden, ['decision', 'confirm']]);
    expect(linked.status).toBe(200);
    expect(linked.text).toContain('data-status="linked"');
    expect(await linkedTo(owner.user)).toEqual([
      { issuer: 'https://issuer.example', email: 'owner@wallet.example' },
    ]);
  });

  it('does the same through the JSON API: presented, then confirm or cancel with the CSRF header', async () => {
    const victim = await signedIn();
    const session = victim.browser.jar.get('__Host-service_session')!;
    const { csrfToken } = JSON.parse((await victim.browser.get(`${base}/consents/`)).text) as {
      csrfToken: string;
    };
    const started = await fetch(`${base}/auth/link/wallet`, {
      method: 'POST',
      headers: { cookie: `__Host-service_session=${session}`, 'x-csrf-token': csrfToken },
    });
    expect(started.status).toBe(200);
    const { handle, invocation_uri } = (await started.json()) as { handle: string; invocation_uri: string };
    const binder = /__Host-service_wallet_binder=([0-9a-f]{64})/.exec(started.headers.get('set-cookie')!)![1];
    const cookie = `__Host-service_session=${session}; __Host-service_wallet_binder=${binder}`;
    expect(handle).not.toBe(handleOf(invocation_uri));

    const intruder = await TestWallet.create(fixture.issuer, {
      sub: 'api-intruder',
      email: 'api@attacker.example',
    });
    await intruder.respond(invocation_uri);
    const polled = await fetch(`${base}/auth/link/wallet/${handle}`, { headers: { cookie } });
    expect(polled.status).toBe(200);
    expect(await polled.json()).toEqual({
      status: 'presented',
      presented: { issuer: 'https://issuer.example', email: 'api@attacker.example' },
    });
    expect(await linkedTo(victim.user)).toEqual([]);
    const noCsrf = await fetch(`${base}/auth/link/wallet/${handle}/confirm`, {
      method: 'POST',
      headers: { cookie },
    });
    expect(noCsrf.status).toBe(400);
    expect(await linkedTo(victim.user)).toEqual([]);
    const cancelled = await fetch(`${base}/auth/link/wallet/${handle}/cancel`, {
      method: 'POST',
      headers: { cookie, 'x-csrf-token': csrfToken },
    });
    expect(cancelled.status).toBe(200);
    expect(await cancelled.json()).toEqual({
      status: 'cancelled',
      message: 'Linking was cancelled. Nothing was linked.',
    });
    const confirmed = await fetch(`${base}/auth/link/wallet/${handle}/confirm`, {
      method: 'POST',
      headers: { cookie, 'x-csrf-token': csrfToken },
    });
    expect(((await confirmed.json()) as { status: string }).status).toBe('cancelled');
    expect(await linkedTo(victim.user)).toEqual([]);
  });
});

describe('a sign-in answered by whoever saw the QR code', () => {
  it('signs nobody in until the starting browser confirms, showing whose credential it is', async () => {
    const attacker = await signedIn();
    const attackerWallet = await TestWallet.create(fixture.issuer, {
      sub: 'attacker-subject',
      email: 'attacker@attacker.example',
    });
    await linkConfirmed(attacker.browser, attackerWallet);

    const victimBrowser = new FormBrowser();
    const { screen } = await startWalletSignIn(base, victimBrowser);
    expect((await attackerWallet.respond(screen.copyText!)).status).toBe(200);
    const page = await victimBrowser.get(screen.refresh.url);
    expect(page.setCookies.filter((cookie) => cookie.startsWith('__Host-service_session='))).toEqual([]);
    const shown = confirmationOf(page, screen.refresh.url);
    expect(shown.issuer).toBe('https://issuer.example');
    expect(shown.email).toBe('attacker@attacker.example');

    const cancelled = await victimBrowser.post(shown.form.action, [
      ...shown.form.hidden,
      ['decision', 'cancel'],
    ]);
    expect(cancelled.status).toBe(200);
    expect(headingOf(cancelled)).toBe('Wallet sign-in cancelled');
    expect(victimBrowser.jar.get('__Host-service_session')).toBeUndefined();
    const late = await victimBrowser.post(shown.form.action, [...shown.form.hidden, ['decision', 'confirm']]);
    expect(late.status).toBe(400);
    expect(headingOf(late)).toBe(REFUSAL_HEADING);
    expect(victimBrowser.jar.get('__Host-service_session')).toBeUndefined();
  });

  it('signs in after the confirmation, and only the starting browser’s form counts', async () => {
    const owner = await signedIn();
    const wallet = await TestWallet.create(fixture.issuer, {
      sub: 'confirming-subject',
      email: 'me@wallet.example',
    });
    await linkConfirmed(owner.browser, wallet);

    const browser = new FormBrowser();
    const { screen } = await startWalletSignIn(base, browser);
    await wallet.respond(screen.copyText!);
    const { form, email } = confirmationOf(await browser.get(screen.refresh.url), screen.refresh.url);
    expect(email).toBe('me@wallet.example');
    // The same form from a browser with another pre-session: refused, the flow untouched.
    const stranger = new FormBrowser();
    await stranger.get(`${base}/ui/wallet-login`);
    const foreign = await stranger.post(form.action, [...form.hidden, ['decision', 'confirm']]);
    expect(foreign.status).toBe(400);
    expect(stranger.jar.get('__Host-service_session')).toBeUndefined();

    const done = await browser.post(form.action, [...form.hidden, ['decision', 'confirm']]);
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/ui/login');
    expect(browser.jar.get('__Host-service_session')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('handles out of page URLs and logs', () => {
  it('names the flow in pages by an identifier that is not the request_uri handle, and never logs that handle', async () => {
    const { browser } = await signedIn();
    const link = await startWalletLink(base, browser);
    const signIn = await startWalletSignIn(base, new FormBrowser());
    for (const started of [link, signIn]) {
      const transport = handleOf(started.screen.copyText!);
      expect(transport).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(started.screen.refresh.url).not.toContain(transport);
      const wallet = await TestWallet.create(fixture.issuer, { sub: `log-${transport.slice(0, 8)}` });
      await wallet.respond(started.screen.copyText!);
    }
    await browser.get(link.screen.refresh.url);
    const logged = lines.join('');
    expect(logged).toContain('/oid4vp/request/');
    for (const started of [link, signIn]) {
      expect(logged.includes(handleOf(started.screen.copyText!)), 'transport handle in the logs').toBe(false);
    }
  });

  it('serves the request object once: a second fetch of the request_uri is a 404', async () => {
    const { screen } = await startWalletSignIn(base, new FormBrowser());
    const requestUri = new URL(screen.copyText!).searchParams.get('request_uri')!;
    expect((await fetch(requestUri)).status).toBe(200);
    const again = await fetch(requestUri);
    expect(again.status).toBe(404);
  });
});

describe('the same-device response code', () => {
  it('answers redirect_uri with a response_code that only the starting browser can use, once', async () => {
    const browser = new FormBrowser();
    const { screen } = await startWalletSignIn(base, browser);
    const owner = await signedIn();
    const wallet = await TestWallet.create(fixture.issuer, {
      sub: 'same-device',
      email: 'same@wallet.example',
    });
    await linkConfirmed(owner.browser, wallet);

    const posted = await wallet.respond(screen.copyText!);
    expect(posted.status).toBe(200);
    const { redirect_uri } = JSON.parse(posted.body) as { redirect_uri: string };
    const redirect = new URL(redirect_uri);
    expect(`${redirect.origin}${redirect.pathname}`).toBe(`${base}/ui/wallet-return`);
    expect(redirect.searchParams.get('response_code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(redirect_uri).not.toContain(handleOf(screen.copyText!));

    // Another browser (the phone's, an attacker's): refused, the code not spent.
    const other = new FormBrowser();
    await startWalletSignIn(base, other);
    for (const stranger of [new FormBrowser(), other]) {
      const refused = await stranger.get(redirect_uri);
      expect(refused.status).toBe(400);
      expect(headingOf(refused)).toBe(REFUSAL_HEADING);
    }
    const back = await browser.get(redirect_uri);
    expect(back.status).toBe(303);
    expect(back.location).toBe(screen.refresh.url);
    // The confirmation still applies: the redirect signs nobody in.
    expect(browser.jar.get('__Host-service_session')).toBeUndefined();
    confirmationOf(await browser.get(back.location!), back.location!);
    const second = await browser.get(redirect_uri);
    expect(second.status).toBe(400);
    expect(headingOf(second)).toBe(REFUSAL_HEADING);
  });
});

describe('a link needs a recent sign-in', () => {
  it('refuses to start a link with a sign-in older than 5 minutes, and a new sign-in lets it start', async () => {
    const { user, browser } = await signedIn();
    await sql.query(
      `UPDATE identity.sessions SET auth_time = now() - interval '6 minutes' WHERE user_id = $1`,
      [user.id],
    );
    const session = browser.jar.get('__Host-service_session')!;
    const { csrfToken } = JSON.parse((await browser.get(`${base}/consents/`)).text) as { csrfToken: string };
    const api = await fetch(`${base}/auth/link/wallet`, {
      method: 'POST',
      headers: { cookie: `__Host-service_session=${session}`, 'x-csrf-token': csrfToken },
    });
    expect(api.status).toBe(401);
    expect(api.headers.get('set-cookie')).toBeNull();
    expect(await api.json()).toEqual({
      error: 'Sign in again to link a wallet',
      statusCode: 401,
      code: 'UNAUTHORIZED',
    });

    const page = await browser.get(`${base}/ui/wallet-link`);
    expect(page.status).toBe(401);
    expect(headingOf(page)).toBe('Sign in again');
    expect(page.text).toContain('<a href="/ui/login?next=wallet-link">Sign in</a>');
    const posted = await browser.post(`${base}/ui/wallet-link`, [['csrf_token', csrfToken]]);
    expect(posted.status).toBe(401);
    expect(headingOf(posted)).toBe('Sign in again');
    // The sign-in page asks for the password again rather than passing the old session on.
    const again = await submitLogin(browser, `${base}/ui/login?next=wallet-link`, user);
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toBe('/ui/wallet-link');
    expect((await startWalletLink(base, browser)).screen.copyText).toBeDefined();
  });
});
