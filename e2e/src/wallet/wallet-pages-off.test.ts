import { afterAll, describe, expect, it } from 'vitest';
import { useSuite, type SuiteContext } from '../support/use-suite.js';
import { createWalletFixture } from '../support/wallet-test-setup.js';

// interface.md 4.5: while WALLET_FEDERATION_ENABLED is off, or on without a usable verifier profile,
// every wallet page is the 404 page, before any other check (docs/decisions.md #25): no CSRF
// refusal, no sign-in prompt, no cookie, and the sign-in page offers no wallet.
const fixture = await createWalletFixture();
afterAll(() => fixture.removeFiles());

/** Every method and path of the interface.md 4.5 wallet table, with what a browser would send. */
const WALLET_PAGES: [method: 'GET' | 'POST', path: string][] = [
  ['GET', '/ui/wallet-login'],
  ['POST', '/ui/wallet-login'],
  ['GET', `/ui/wallet-login/${'A'.repeat(43)}`],
  ['GET', `/ui/wallet-login/${'A'.repeat(43)}/status`],
  ['GET', '/ui/wallet-link'],
  ['POST', '/ui/wallet-link'],
  ['GET', `/ui/wallet-link/${'A'.repeat(43)}`],
  ['POST', `/ui/wallet-link/${'A'.repeat(43)}`],
  ['POST', `/ui/wallet-login/${'A'.repeat(43)}/status`],
  ['GET', '/ui/wallet-return'],
];

function expectEveryPageNotFound(context: SuiteContext) {
  it.each(WALLET_PAGES)('%s %s is the 404 page', async (method, path) => {
    const response = await fetch(context.url(path), {
      method,
      redirect: 'manual',
      headers: {
        cookie: `__Host-service_wallet_binder=${'0'.repeat(64)}; __Host-service_session=${'0'.repeat(64)}`,
        ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(method === 'POST' ? { body: 'csrf_token=forged' } : {}),
    });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(await response.text()).toContain('<title>Page not found</title>');
  });

  it('offers no wallet sign-in on the sign-in page', async () => {
    const login = await fetch(context.url('/ui/login'));
    expect(login.status).toBe(200);
    expect(await login.text()).not.toContain('wallet');
  });
}

describe('wallet federation off', () => {
  expectEveryPageNotFound(useSuite());
});

describe('wallet federation on without a verifier profile', () => {
  const { WALLET_VERIFIER_KEY_FILE: _key, ...withoutKey } = fixture.serviceEnv;
  expectEveryPageNotFound(useSuite({ serviceEnv: withoutKey, gatewayEnv: fixture.gatewayEnv }));
});
