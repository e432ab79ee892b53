import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUser, useCodeFlow } from '../support/code-flow.js';
import { FormBrowser } from '@authz/shared/testing/form-browser';
import { createWalletFixture } from '../support/wallet-test-setup.js';
import { signInWithPassword, startWalletLink, startWalletSignIn } from './wallet-page-flows.js';
import { headingOf } from './wallet-page-reader.js';

// interface.md 3 `expired` and the uniform refusal of an expired sign-in, with presentation requests
// that live one second (WALLET_REQUEST_TTL, docs/wallet.md).
const fixture = await createWalletFixture();
const flow = useCodeFlow(fixture.gatewayEnv, { ...fixture.serviceEnv, WALLET_REQUEST_TTL: '1' });
let base: string;
let browser: FormBrowser;

beforeAll(async () => {
  base = flow.suite.baseUrl;
  browser = new FormBrowser();
  await signInWithPassword(base, browser, await newUser(flow));
});
afterAll(() => fixture.removeFiles());

/**
 * Until a flow whose start answered at `answeredAt` has expired: it was created before that
 * answer, so its one-second life ends before `answeredAt` + 1 s; 100 ms more is the margin.
 */
const pastExpiry = (answeredAt: number) => sleep(Math.max(0, answeredAt + 1_100 - Date.now()));

describe('an expired wallet flow', () => {
  it('is the expired status on the link page, and its cookies lived as long as the flow', async () => {
    const { page, screen } = await startWalletLink(base, browser);
    const answeredAt = Date.now();
    for (const cookie of page.setCookies) expect(cookie).toMatch(/; Max-Age=1$/);
    await pastExpiry(answeredAt);
    const expired = await browser.get(screen.refresh.url);
    expect(expired.status).toBe(200);
    expect(headingOf(expired)).toBe('Request expired');
    expect(expired.text).toContain(
      '<p role="status" data-status="expired">The request expired. Start again.</p>',
    );
  });

  it('is the uniform refusal on the sign-in poll', async () => {
    const signIn = new FormBrowser();
    const { screen } = await startWalletSignIn(base, signIn);
    const answeredAt = Date.now();
    await pastExpiry(answeredAt);
    const refused = await signIn.get(screen.refresh.url);
    expect(refused.status).toBe(400);
    expect(headingOf(refused)).toBe('This wallet request cannot be used');
  });
});
