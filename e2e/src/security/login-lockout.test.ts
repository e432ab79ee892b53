import { describe, expect, it } from 'vitest';
import { postJson } from '../support/http.js';
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
import { FormBrowser } from '@authz/shared/testing/form-browser';

// docs/security.md #5: the account budget of interface.md 8 slows guessing from many addresses, yet
// nobody can spend it to lock the owner out of an address they signed in from. A trusted
// proxy names the client IP, so one test process signs in from several addresses.
const flow = useCodeFlow({ LOGIN_RATE_LIMIT: '3', LOGIN_RATE_WINDOW: '300', TRUST_PROXY: '127.0.0.1' });

const login = (user: Pick<TestUser, 'email' | 'password'>, ip: string) =>
  postJson(`${flow.suite.baseUrl}/auth/login`, user, { 'x-forwarded-for': ip });
const guess = (user: TestUser) => ({ email: user.email, password: 'wrong-Password-1234' });

/** Guesses from fresh addresses until the account budget is spent (the owner's sign-in counted too). */
async function spendAccountBudget(user: TestUser, subnet: string): Promise<void> {
  const statuses: number[] = [];
  for (let host = 1; host <= 4; host += 1)
    statuses.push((await login(guess(user), `${subnet}.${host}`)).status);
  expect(statuses.slice(0, 2)).toEqual([401, 401]);
  expect(statuses.at(-1)).toBe(429);
}

describe('the account budget cannot lock the owner out (interface.md 8)', () => {
  it('spares the addresses the account signed in from, and only them', async () => {
    const victim = await newUser(flow);
    expect((await login(victim, '192.0.2.10')).status).toBe(200);

    await spendAccountBudget(victim, '198.51.100');
    // A new address now waits for the window, whatever the password...
    expect((await login(victim, '198.51.100.5')).status).toBe(429);
    // ...but the owner's own address signs in, again and again.
    for (let attempt = 0; attempt < 2; attempt += 1)
      expect((await login(victim, '192.0.2.10')).status).toBe(200);
  });

  it('a known address still has its own per-IP budget', async () => {
    const victim = await newUser(flow);
    expect((await login(victim, '192.0.2.20')).status).toBe(200);
    for (let attempt = 0; attempt < 2; attempt += 1) {
      expect((await login(guess(victim), '192.0.2.20')).status).toBe(401);
    }
    expect((await login(victim, '192.0.2.20')).status).toBe(429);
  });

  it('remembers hosted sign-ins too', async () => {
    const victim = await newUser(flow);
    const browser = new FormBrowser();
    const start = await browser.get(
      authorizeUrl(flow.suite, authorizationParameters({ client: await newAppClient(flow) })),
    );
    const form = await openLoginForm(browser, start.location!);
    const signedIn = await browser.post(form.action, loginFields(form, victim), {
      'x-forwarded-for': '192.0.2.30',
    });
    expect(signedIn.status).toBe(303);

    await spendAccountBudget(victim, '203.0.113');
    expect((await login(victim, '192.0.2.30')).status).toBe(200);
  });
});
