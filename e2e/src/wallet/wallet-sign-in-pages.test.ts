import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorizationParameters,
  authorizeUrl,
  INVALID_CSRF,
  newAppClient,
  newPkce,
  newUser,
  redeemCode,
  submitConsent,
  useCodeFlow,
  verifyIdToken,
  type AppClient,
  type TestUser,
} from '../support/code-flow.js';
import { parseForms, FormBrowser } from '@authz/shared/testing/form-browser';
import { TestWallet } from '../support/test-wallet.js';
import { createWalletFixture } from '../support/wallet-test-setup.js';
import {
  confirmOnPage,
  linkThroughPages,
  signInConfirmed,
  signInWithPassword,
  startWalletSignIn,
} from './wallet-page-flows.js';
import { headingOf, readWaitingScreen } from './wallet-page-reader.js';

// interface.md 4.5 wallet sign-in pages (docs/hosted-pages.md #16-20;
// docs/decisions.md #17-19, #25) end to end through the gateway: consent-ui renders them over
// wallet-bridge, a test wallet answers by direct_post.
const fixture = await createWalletFixture();
const flow = useCodeFlow(fixture.gatewayEnv, fixture.serviceEnv);
let base: string;
let alice: TestUser;
let aliceWallet: TestWallet;
let client: AppClient;

const BINDER = '__Host-service_wallet_binder';
const REFUSAL_HEADING = 'This wallet request cannot be used';
const COOKIE_ATTRIBUTES = 'Path=/; Secure; HttpOnly; SameSite=Lax';

beforeAll(async () => {
  base = flow.suite.baseUrl;
  client = await newAppClient(flow);
  alice = await newUser(flow);
  aliceWallet = await TestWallet.create(fixture.issuer, {
    sub: 'alice-subject',
    email: 'alice@wallet.example',
  });
  const browser = new FormBrowser();
  await signInWithPassword(base, browser, alice);
  const linked = await linkThroughPages(base, browser, aliceWallet);
  expect(headingOf(linked)).toBe('Wallet linked');
});
afterAll(() => fixture.removeFiles());

/** GET /oauth/authorize: the pending authorization's handle, from the redirect to the sign-in page. */
async function pendingAuthorization(browser: FormBrowser, pkce = newPkce()): Promise<string> {
  const started = await browser.get(authorizeUrl(flow.suite, authorizationParameters({ client, pkce })));
  expect(started.status).toBe(302);
  const login = new URL(started.location!);
  expect(`${login.origin}${login.pathname}`).toBe(`${base}/ui/login`);
  return login.searchParams.get('handle')!;
}

describe('GET /ui/wallet-login', () => {
  it('is offered by the sign-in page for the same pending authorization', async () => {
    const browser = new FormBrowser();
    const handle = await pendingAuthorization(browser);
    const login = await browser.get(`${base}/ui/login?handle=${handle}`);
    expect(login.status).toBe(200);
    expect(login.text).toContain(
      `<a href="/ui/wallet-login?handle=${handle}">Sign in with a wallet instead</a>`,
    );
    // Still the one form of docs/contract.md "Hosted pages": the offer is a link.
    expect(parseForms(login.text, `${base}/ui/login`)).toHaveLength(1);
  });

  it('renders the start form, bound to a pre-session cookie and the pending authorization', async () => {
    const browser = new FormBrowser();
    const handle = await pendingAuthorization(browser);
    const page = await browser.get(`${base}/ui/wallet-login?handle=${handle}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(headingOf(page)).toBe('Sign in with a wallet to continue to Photo app');
    expect(page.setCookies).toEqual([
      expect.stringMatching(
        /^__Host-service_login=[0-9a-f]{64}; Path=\/; Secure; HttpOnly; SameSite=Lax; Max-Age=600$/,
      ),
    ]);
    const [form, ...others] = parseForms(page.text, `${base}/ui/wallet-login`);
    expect(others).toEqual([]);
    expect(form).toMatchObject({ action: `${base}/ui/wallet-login`, method: 'POST' });
    expect(form!.hidden).toEqual([
      ['handle', handle],
      ['csrf_token', expect.stringMatching(/^[0-9a-f]{64}$/)],
    ]);
  });
});

describe('POST /ui/wallet-login', () => {
  it('starts a sign-in: binder cookie, a QR code of the invocation URI, the deep link and a self-refresh', async () => {
    const browser = new FormBrowser();
    const { page, screen, handle } = await startWalletSignIn(base, browser);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('content-security-policy')).toContain("img-src 'self' data:");
    expect(page.setCookies).toEqual([
      expect.stringMatching(
        new RegExp(`^${BINDER}=[0-9a-f]{64}; ${COOKIE_ATTRIBUTES}; Max-Age=(29\\d|300)$`),
      ),
      expect.stringMatching(
        new RegExp(
          `^__Host-service_wallet_invocation=[A-Za-z0-9_-]+; ${COOKIE_ATTRIBUTES}; Max-Age=(29\\d|300)$`,
        ),
      ),
    ]);
    const invocation = new URL(screen.copyText!);
    expect(invocation.protocol).toBe('openid4vp:');
    expect(invocation.searchParams.get('request_uri')).toBe(`${base}/oid4vp/request/${handle}`);
    expect(invocation.searchParams.get('client_id')).toMatch(/^x509_hash:[A-Za-z0-9_-]{43}$/);
    // The image is a real QR code: read back, it is the invocation URI, as is the deep link.
    expect(screen.qrText).toBe(screen.copyText);
    expect(screen.deepLink).toBe(screen.copyText);
    const { flow: flowId } = await startWalletSignIn(base, new FormBrowser());
    expect(flowId).not.toBe(handle);
    expect(screen.refresh.url).toMatch(new RegExp(`^${base}/ui/wallet-login/[A-Za-z0-9_-]{43}/status$`));
    expect(screen.refresh.url).not.toContain(handle);
  });

  it('refuses a missing token, another browser’s token and the password form’s token (docs/decisions.md #19)', async () => {
    const browser = new FormBrowser();
    const formPage = await browser.get(`${base}/ui/wallet-login`);
    const token = parseForms(formPage.text, base)[0]!.hidden.find(([name]) => name === 'csrf_token')![1];
    const passwordForm = await browser.get(`${base}/ui/login`);
    const passwordToken = parseForms(passwordForm.text, base)[0]!.hidden.find(
      ([name]) => name === 'csrf_token',
    )![1];
    const stranger = new FormBrowser();
    await stranger.get(`${base}/ui/wallet-login`);
    const attempts: [FormBrowser, [string, string][]][] = [
      [browser, []],
      [browser, [['csrf_token', passwordToken]]],
      [stranger, [['csrf_token', token]]],
      [new FormBrowser(), [['csrf_token', token]]],
    ];
    for (const [who, fields] of attempts) {
      const refused = await who.post(`${base}/ui/wallet-login`, fields);
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.text)).toEqual(INVALID_CSRF);
      expect(refused.setCookies).toEqual([]);
    }
  });
});

describe('GET /ui/wallet-login/{handle}/status', () => {
  it('completes the sign-in once the wallet has answered and continues the authorization', async () => {
    const browser = new FormBrowser();
    const pkce = newPkce();
    const pending = await pendingAuthorization(browser, pkce);
    const { screen, flow: flowId } = await startWalletSignIn(base, browser, pending);
    const status = `${base}/ui/wallet-login/${flowId}/status?handle=${pending}`;
    expect(screen.refresh.url).toBe(status);

    // The waiting screen and the poll show the same code while the wallet has not answered.
    const waitingUrl = `${base}/ui/wallet-login/${flowId}?handle=${pending}`;
    const waiting = readWaitingScreen(await browser.get(waitingUrl), waitingUrl);
    expect(waiting).toEqual(screen);
    expect(readWaitingScreen(await browser.get(status), status)).toEqual(screen);

    expect((await aliceWallet.respond(screen.qrText!)).status).toBe(200);
    // docs/wallet.md #16: the credential is shown first; the confirmation signs in.
    const shown = await browser.get(status);
    expect(headingOf(shown)).toBe('Is this your wallet credential?');
    expect(shown.setCookies).toEqual([]);
    const form = parseForms(shown.text, status)[0]!;
    expect(form.action).toBe(`${base}/ui/wallet-login/${flowId}/status`);
    expect(form.hidden).toEqual([
      ['csrf_token', expect.stringMatching(/^[0-9a-f]{64}$/)],
      ['handle', pending],
    ]);
    const signedIn = await confirmOnPage(browser, shown, status);
    expect(signedIn.status).toBe(303);
    expect(signedIn.location).toBe(`${base}/ui/resume/${pending}`);
    expect(signedIn.text).toBe('');
    expect(signedIn.setCookies).toEqual([
      expect.stringMatching(new RegExp(`^__Host-service_session=[0-9a-f]{64}; ${COOKIE_ATTRIBUTES}$`)),
      `__Host-service_login=; ${COOKIE_ATTRIBUTES}; Max-Age=0`,
      `${BINDER}=; ${COOKIE_ATTRIBUTES}; Max-Age=0`,
      `__Host-service_wallet_invocation=; ${COOKIE_ATTRIBUTES}; Max-Age=0`,
    ]);

    const resumed = await browser.get(signedIn.location!);
    expect(resumed.status).toBe(302);
    expect(resumed.location).toMatch(new RegExp(`^${base}/ui/consent\\?`));
    const decided = await submitConsent(browser, resumed.location!, 'allow');
    expect(decided.status).toBe(303);
    const code = new URL(decided.location!).searchParams.get('code')!;
    const tokens = await redeemCode(flow, client, code, pkce.verifier);
    expect(tokens.status).toBe(200);
    const idToken = await verifyIdToken(flow, client, tokens.body.id_token as string);
    expect(idToken.sub).toBe(alice.id);
  });

  it('yields the same sub on a later wallet sign-in, in another browser', async () => {
    const browser = new FormBrowser();
    const pkce = newPkce();
    const pending = await pendingAuthorization(browser, pkce);
    const { screen, flow: flowId } = await startWalletSignIn(base, browser, pending);
    await aliceWallet.respond(screen.copyText!);
    const signedIn = await signInConfirmed(
      browser,
      `${base}/ui/wallet-login/${flowId}/status?handle=${pending}`,
    );
    expect(signedIn.location).toBe(`${base}/ui/resume/${pending}`);
    // Consent was given in the previous test: straight back to the client.
    const resumed = await browser.get(signedIn.location!);
    const code = new URL(resumed.location!).searchParams.get('code')!;
    const tokens = await redeemCode(flow, client, code, pkce.verifier);
    const userInfo = await fetch(`${base}/oauth/userinfo`, {
      headers: { authorization: `Bearer ${tokens.body.access_token as string}` },
    });
    expect(userInfo.status).toBe(200);
    expect(((await userInfo.json()) as { sub: string }).sub).toBe(alice.id);
  });

  it('ends on the signed-in page when no authorization is pending, and is delivered once', async () => {
    const browser = new FormBrowser();
    const { screen, flow: flowId } = await startWalletSignIn(base, browser);
    await aliceWallet.respond(screen.copyText!);
    const binder = browser.jar.get(BINDER)!;
    const login = browser.jar.get('__Host-service_login')!;
    const signedIn = await signInConfirmed(browser, screen.refresh.url);
    expect(signedIn.status).toBe(303);
    expect(signedIn.location).toBe(`${base}/ui/login`);
    const landing = await browser.get(signedIn.location!);
    expect(landing.status).toBe(200);
    expect(landing.text).toContain(`You are signed in as <strong>${alice.email}</strong>.`);

    // A replayed poll, even with the binder and pre-session cookies, is the uniform refusal.
    browser.jar.set(BINDER, binder);
    browser.jar.set('__Host-service_login', login);
    const replayed = await browser.get(`${base}/ui/wallet-login/${flowId}/status`);
    expect(replayed.status).toBe(400);
    expect(headingOf(replayed)).toBe(REFUSAL_HEADING);
    expect(replayed.setCookies).toEqual([]);
  });

  it('refuses a browser without the binder cookie or with another flow’s, and consumes nothing', async () => {
    const browser = new FormBrowser();
    const { screen, flow: flowId } = await startWalletSignIn(base, browser);
    await aliceWallet.respond(screen.copyText!);
    const other = new FormBrowser();
    await startWalletSignIn(base, other);
    const bare = new FormBrowser();
    const refusals = [
      await bare.get(screen.refresh.url),
      await bare.get(`${base}/ui/wallet-login/${flowId}`),
      await other.get(screen.refresh.url),
    ];
    const bodies = new Set(refusals.map((refusal) => refusal.text));
    expect(bodies.size).toBe(1);
    for (const refusal of refusals) {
      expect(refusal.status).toBe(400);
      expect(headingOf(refusal)).toBe(REFUSAL_HEADING);
      expect(refusal.setCookies).toEqual([]);
    }
    // The browser that started the flow still signs in.
    expect((await signInConfirmed(browser, screen.refresh.url)).status).toBe(303);
  });

  it('shows one refusal for an unlinked credential, a wrong nonce, an untrusted issuer and an unknown handle', async () => {
    const stranger = await TestWallet.create(fixture.issuer, { sub: 'nobody' });
    const untrusted = await TestWallet.create(fixture.untrusted, { sub: 'alice-subject' });
    const answers: [TestWallet, Parameters<TestWallet['respond']>[1]][] = [
      [stranger, {}],
      [untrusted, {}],
      [aliceWallet, { nonce: 'not-the-nonce' }],
    ];
    const bodies = new Set<string>();
    for (const [wallet, options] of answers) {
      const browser = new FormBrowser();
      const { screen } = await startWalletSignIn(base, browser);
      expect((await wallet.respond(screen.copyText!, options)).status).toBe(200);
      // An unlinked credential verifies and is shown; the confirmation is refused.
      const refused = await signInConfirmed(browser, screen.refresh.url);
      expect(refused.status).toBe(400);
      expect(refused.setCookies).toEqual([]);
      bodies.add(refused.text);
    }
    const browser = new FormBrowser();
    await startWalletSignIn(base, browser);
    bodies.add((await browser.get(`${base}/ui/wallet-login/${'A'.repeat(43)}/status`)).text);
    expect(bodies.size).toBe(1);
  });
});
