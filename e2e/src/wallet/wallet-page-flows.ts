import { expect } from 'vitest';
import { formOf, submitLogin, type TestUser } from '../support/code-flow.js';
import type { BrowserResponse, FormBrowser } from '@authz/shared/testing/form-browser';
import type { TestWallet } from '../support/test-wallet.js';
import { handleOf, readWaitingScreen, type WaitingScreen } from './wallet-page-reader.js';

/**
 * A wallet flow started from its page: the page answered, what it shows, the transport handle
 * of its request_uri, and the flow id that names it in page URLs (docs/wallet.md #17).
 */
export interface StartedFromPage {
  page: BrowserResponse;
  screen: WaitingScreen;
  handle: string;
  flow: string;
}

/** Signs `browser` in with the password form (docs/contract.md "Hosted pages"). */
export async function signInWithPassword(
  baseUrl: string,
  browser: FormBrowser,
  user: Pick<TestUser, 'email' | 'password'>,
): Promise<void> {
  const signedIn = await submitLogin(browser, `${baseUrl}/ui/login`, user);
  expect(signedIn.status).toBe(303);
}

/** GET /ui/wallet-login (continuing `returnTo`), then submits its one form. */
export async function startWalletSignIn(
  baseUrl: string,
  browser: FormBrowser,
  returnTo?: string,
): Promise<StartedFromPage> {
  const formUrl = `${baseUrl}/ui/wallet-login${returnTo === undefined ? '' : `?handle=${returnTo}`}`;
  const formPage = await browser.get(formUrl);
  expect(formPage.status).toBe(200);
  const form = formOf(formPage, formUrl, () => true);
  return postAndRead(browser, form.action, form.hidden);
}

/** GET /ui/wallet-link with a signed-in browser, then submits its one form. */
export async function startWalletLink(baseUrl: string, browser: FormBrowser): Promise<StartedFromPage> {
  const formUrl = `${baseUrl}/ui/wallet-link`;
  const formPage = await browser.get(formUrl);
  expect(formPage.status).toBe(200);
  const form = formOf(formPage, formUrl, () => true);
  return postAndRead(browser, form.action, form.hidden);
}

async function postAndRead(
  browser: FormBrowser,
  action: string,
  fields: [string, string][],
): Promise<StartedFromPage> {
  const page = await browser.post(action, fields);
  const screen = readWaitingScreen(page, action);
  expect(screen.copyText).toBeDefined();
  const flow = /\/ui\/wallet-(?:login|link)\/([A-Za-z0-9_-]{43})/.exec(screen.refresh.url)?.[1];
  expect(flow).toBeDefined();
  return { page, screen, handle: handleOf(screen.copyText!), flow: flow! };
}

/**
 * Links `wallet`'s credential to the account `browser` is signed in to, through the pages:
 * the wallet answers, the browser is shown the credential and confirms it (docs/wallet.md #16).
 */
export async function linkThroughPages(
  baseUrl: string,
  browser: FormBrowser,
  wallet: TestWallet,
): Promise<BrowserResponse> {
  const started = await startWalletLink(baseUrl, browser);
  expect((await wallet.respond(started.screen.copyText!)).status).toBe(200);
  return confirmOnPage(browser, await browser.get(started.screen.refresh.url), started.screen.refresh.url);
}

/**
 * GET a wallet sign-in's status page after the wallet answered and, when it shows the
 * confirmation screen, confirm it there (docs/wallet.md #16): what the browser ends on.
 */
export async function signInConfirmed(browser: FormBrowser, statusUrl: string): Promise<BrowserResponse> {
  const page = await browser.get(statusUrl);
  return page.status === 200 && page.text.includes('name="decision"')
    ? confirmOnPage(browser, page, statusUrl)
    : page;
}

/** Posts the confirmation screen's form with `decision` (docs/wallet.md #16). */
export async function confirmOnPage(
  browser: FormBrowser,
  page: BrowserResponse,
  pageUrl: string,
  decision: 'confirm' | 'cancel' = 'confirm',
): Promise<BrowserResponse> {
  expect(page.status).toBe(200);
  const form = formOf(page, pageUrl, (candidate) => candidate.method === 'POST');
  return browser.post(form.action, [...form.hidden, ['decision', decision]]);
}
