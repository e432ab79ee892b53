import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS_DIR, launchChromium } from '../support/chromium.js';
import {
  authorizationParameters,
  authorizeUrl,
  newAppClient,
  newUser,
  useCodeFlow,
} from '../support/code-flow.js';

// docs/hosted-pages.md "Errors the gateway renders": a person who meets the sign-in limit sees a
// page in the product's layout saying how long to wait, not a JSON body on a blank page.
const flow = useCodeFlow({ LOGIN_RATE_LIMIT: '2', LOGIN_RATE_WINDOW: '120' });
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe('the hosted login once rate limited, in Chromium', () => {
  it('shows the styled "Too many attempts" page with the wait, and Retry-After', async () => {
    const user = await newUser(flow);
    const client = await newAppClient(flow);
    const page = await (await browser.newContext()).newPage();
    const styleSheets: number[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('/ui/assets/style.css')) styleSheets.push(response.status());
    });

    let last: { status: number; retryAfter: string | null } | undefined;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await page.goto(authorizeUrl(flow.suite, authorizationParameters({ client })));
      await page.waitForURL(`${flow.suite.baseUrl}/ui/login?**`);
      await page.fill('input[type=email][name=email]', user.email);
      await page.fill('input[type=password][name=password]', 'wrong-Password-1234');
      const [response] = await Promise.all([
        // The sign-in form's own POST: the page's passkey script also POSTs for its options
        // when the address field gets focus (docs/strong-authentication.md).
        page.waitForResponse(
          (candidate) =>
            candidate.request().method() === 'POST' && new URL(candidate.url()).pathname === '/ui/login',
        ),
        page.click('form [type=submit]'),
      ]);
      last = { status: response.status(), retryAfter: await response.headerValue('retry-after') };
    }
    await page.waitForLoadState('load');
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'login-rate-limited.png'), fullPage: true });

    expect(last?.status).toBe(429);
    expect(Number(last?.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(await page.title()).toBe('Too many attempts');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Too many attempts');
    expect(await page.locator('main p').textContent()).toMatch(
      /^There have been too many attempts in a short time\. Wait \d+ (seconds?|minutes?) and try again\.$/,
    );
    expect(await page.locator('body').textContent()).not.toContain('{');
    // The page is laid out by the pages' own stylesheet.
    expect(styleSheets.at(-1)).toBe(200);
  });
});
