import { describe, expect, it } from 'vitest';
import { postJson } from '../support/http.js';
import { metricValue } from '../support/metrics.js';
import {
  authorizationParameters,
  authorizeUrl,
  loginFields,
  newAppClient,
  newUser,
  openLoginForm,
  useCodeFlow,
  type TestUser,
} from '../support/code-flow.js';
import { FormBrowser, type BrowserResponse } from '@authz/shared/testing/form-browser';

// interface.md 8 through the gateway: the hosted sign-in shares the per-IP and per-account budgets of
// POST /auth/login (docs/gateway-routes.md #2). A trusted proxy names the client IP, so one
// test process can sign in from several addresses.
const flow = useCodeFlow({ LOGIN_RATE_LIMIT: '3', LOGIN_RATE_WINDOW: '300', TRUST_PROXY: '127.0.0.1' });

const RATE_LIMITED = { error: 'Too many requests', statusCode: 429, code: 'RATE_LIMITED' };

async function hostedLogin(user: Pick<TestUser, 'email' | 'password'>, ip: string): Promise<BrowserResponse> {
  const browser = new FormBrowser();
  const client = await newAppClient(flow);
  const start = await browser.get(authorizeUrl(flow.suite, authorizationParameters({ client })));
  const form = await openLoginForm(browser, start.location!);
  return browser.post(form.action, loginFields(form, user), { 'x-forwarded-for': ip });
}

function firstPartyLogin(user: Pick<TestUser, 'email' | 'password'>, ip: string) {
  return postJson(`${flow.suite.baseUrl}/auth/login`, user, { 'x-forwarded-for': ip });
}

function expectRateLimited(response: { status: number; headers: Headers }, body: unknown): void {
  expect({ status: response.status, body }).toEqual({ status: 429, body: RATE_LIMITED });
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
}

/** The hosted form is answered with a page, never JSON (docs/hosted-pages.md "Errors the gateway renders"). */
function expectRateLimitedPage(response: BrowserResponse): void {
  expect(response.status).toBe(429);
  expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
  const wait = Number(response.headers.get('retry-after'));
  expect(wait).toBeGreaterThanOrEqual(1);
  expect(response.text).toContain('<h1>Too many attempts</h1>');
  expect(response.text).toMatch(
    /<p>There have been too many attempts in a short time\. Wait \d+ (seconds?|minutes?) and try again\.<\/p>/,
  );
}

const wrongPassword = (user: TestUser) => ({ email: user.email, password: 'wrong-Password-1234' });

describe('POST /ui/login rate limits (interface.md 8)', () => {
  it('per IP, one budget with /auth/login', async () => {
    const ip = '203.0.113.10';
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const user = await newUser(flow);
      expect((await hostedLogin(wrongPassword(user), ip)).status).toBe(401);
    }
    const user = await newUser(flow);
    const limited = await hostedLogin(user, ip);
    expectRateLimitedPage(limited);
    const firstParty = await firstPartyLogin(user, ip);
    expectRateLimited(firstParty, firstParty.body);
    // Another address is not affected.
    expect((await hostedLogin(user, '203.0.113.11')).status).toBe(303);
  });

  it('per account, across addresses, and counted as rate_limited', async () => {
    const read = async () => (await fetch(`${flow.suite.baseUrl}/metrics`)).text();
    const before = metricValue(await read(), 'login_attempts_total', { outcome: 'rate_limited' });
    const user = await newUser(flow);
    for (const ip of ['198.51.100.1', '198.51.100.2']) {
      expect((await hostedLogin(wrongPassword(user), ip)).status).toBe(401);
    }
    expect((await firstPartyLogin(wrongPassword(user), '198.51.100.3')).status).toBe(401);

    const limited = await hostedLogin(user, '198.51.100.4');
    expectRateLimitedPage(limited);
    const after = metricValue(await read(), 'login_attempts_total', { outcome: 'rate_limited' });
    expect(after - before).toBe(1);
    // Other accounts from the same addresses still sign in.
    expect((await hostedLogin(await newUser(flow), '198.51.100.4')).status).toBe(303);
  });
});
