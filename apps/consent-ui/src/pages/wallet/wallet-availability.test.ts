import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectHtmlPage } from '../../../test/page-shape.js';
import { HANDLE, signedIn, useWalletPages, withBinder } from './test/use-wallet-pages.js';

// The wallet pages while wallet-bridge is off or unreachable, and the sign-in page's offer
// (interface.md 4.5); the set-up: test/use-wallet-pages.ts.
const { bridge, ui, unreachable } = useWalletPages({ withUnreachable: true });

describe('while wallet-bridge says the feature is off', () => {
  beforeAll(() => {
    bridge.enabled = false;
  });
  afterAll(() => {
    bridge.enabled = true;
  });

  it.each([
    ['GET', '/ui/wallet-login'],
    ['POST', '/ui/wallet-login'],
    ['GET', `/ui/wallet-login/${HANDLE}`],
    ['GET', `/ui/wallet-login/${HANDLE}/status`],
    ['GET', '/ui/wallet-link'],
    ['POST', '/ui/wallet-link'],
    ['GET', `/ui/wallet-link/${HANDLE}`],
    ['POST', `/ui/wallet-link/${HANDLE}`],
    ['POST', `/ui/wallet-login/${HANDLE}/status`],
    ['GET', '/ui/wallet-return'],
    // Even a method the path does not take: the path does not exist at all.
    ['POST', '/ui/wallet-return'],
  ])('%s %s is the 404 page, before any other check', async (method, path) => {
    const page = await ui.render(method, path, {
      cookies: withBinder(signedIn),
      form: { csrf_token: 'forged' },
    });
    expectHtmlPage(page, 404);
    expect(page.setCookies).toEqual([]);
  });

  it('the sign-in page offers no wallet', async () => {
    const page = await ui.render('GET', '/ui/login');
    expectHtmlPage(page, 200);
    expect(page.body).not.toContain('/ui/wallet-login');
  });
});

describe('while wallet-bridge cannot be reached', () => {
  it('the sign-in page still works, without the wallet offer', async () => {
    const page = await unreachable.render('GET', '/ui/login');
    expectHtmlPage(page, 200);
    expect(page.body).not.toContain('/ui/wallet-login');
  });

  it('the wallet pages are the 500 page', async () => {
    expectHtmlPage(await unreachable.render('GET', '/ui/wallet-login'), 500);
  });
});

it('offers wallet sign-in on the sign-in page while the feature is on', async () => {
  const page = await ui.render('GET', '/ui/login');
  expect(page.body).toContain('<a href="/ui/wallet-login">Sign in with a wallet instead</a>');
});
