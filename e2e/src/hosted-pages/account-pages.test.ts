import { describe, expect, it } from 'vitest';
import { ACCOUNT_PASSWORD, accountCall, signIn, signUp } from '../support/accounts.js';
import { INVALID_CSRF, formOf, submitLogin } from '../support/code-flow.js';
import { parseForms, FormBrowser, type BrowserResponse } from '@authz/shared/testing/form-browser';
import { useSuite } from '../support/use-suite.js';

// interface.md 4.10 pages over plain HTTP, where a browser would hide the answers: the CSRF and
// session checks of every form, sign-up refusals, and the budgets the gateway applies.
const context = useSuite({
  gatewayEnv: { REGISTER_RATE_LIMIT: '6', ACCOUNT_DELETION_RATE_LIMIT: '3', TRUST_PROXY: '127.0.0.1' },
});
const url = (path: string) => context.url(path);

let sequence = 0;
const newEmail = () => `pages-${Date.now()}-${(sequence += 1)}@example.com`;
const fromAddress = (n: number) => ({ 'x-forwarded-for': `192.0.2.${n}` });

async function signedInBrowser(): Promise<{ browser: FormBrowser; email: string; userId: string }> {
  const user = await signUp(context.suite, 'pages');
  const browser = new FormBrowser();
  const signedIn = await submitLogin(browser, url('/ui/login?next=account'), user);
  expect(signedIn.status).toBe(303);
  return { browser, email: user.email, userId: user.userId };
}

const csrfOf = (page: BrowserResponse) =>
  parseForms(page.text, url('/ui/account'))[0]!.hidden.find(([name]) => name === 'csrf_token')![1];

describe('/ui/register', () => {
  it('refuses a form without its CSRF token, and answers each refusal of identity on the form', async () => {
    const browser = new FormBrowser();
    const page = await browser.get(url('/ui/register'), fromAddress(1));
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    const form = formOf(page, url('/ui/register'), (candidate) => candidate.action.endsWith('/ui/register'));

    const forged = await browser.post(
      form.action,
      [
        ['email', newEmail()],
        ['password', ACCOUNT_PASSWORD],
      ],
      fromAddress(1),
    );
    expect({ status: forged.status, body: JSON.parse(forged.text) }).toEqual({
      status: 400,
      body: INVALID_CSRF,
    });

    const weak = await browser.post(
      form.action,
      [...form.hidden, ['email', 'not-an-address'], ['password', 'short']],
      fromAddress(1),
    );
    expect(weak.status).toBe(400);
    expect(weak.text).toContain('<p class="alert" id="email-error">Email must be a valid email address.</p>');
    expect(weak.text).toContain(
      '<p class="alert" id="password-error">Password must be 8 to 128 characters long.</p>',
    );
    expect(weak.text).toContain('aria-invalid="true" aria-describedby="password-error"');
    expect(weak.text).not.toContain('short');

    const taken = await signUp(context.suite, 'taken');
    const conflict = await browser.post(
      form.action,
      [...form.hidden, ['email', taken.email], ['password', ACCOUNT_PASSWORD]],
      fromAddress(1),
    );
    expect(conflict.status).toBe(409);
    expect(conflict.text).toContain(
      'The account could not be created. If you already have one, sign in instead.',
    );
    expect(conflict.setCookies.some((cookie) => cookie.startsWith('__Host-service_session='))).toBe(false);
  });

  it('signs the new account in and lands on the account page without a pending authorization', async () => {
    const browser = new FormBrowser();
    const page = await browser.get(url('/ui/register'), fromAddress(2));
    const form = formOf(page, url('/ui/register'), (candidate) => candidate.action.endsWith('/ui/register'));
    const email = newEmail();
    const created = await browser.post(
      form.action,
      [...form.hidden, ['email', email], ['password', ACCOUNT_PASSWORD]],
      fromAddress(2),
    );
    expect(created.status).toBe(303);
    expect(created.location).toBe(url('/ui/account'));
    expect(created.setCookies[0]).toMatch(
      /^__Host-service_session=[0-9a-f]{64}; Path=\/; Secure; HttpOnly; SameSite=Lax$/,
    );
    const account = await browser.get(created.location!);
    expect(account.status).toBe(200);
    expect(account.text).toContain(`<strong>${email}</strong>`);
    // The sign-up budget is the one of POST /auth/register.
    for (let attempt = 0; attempt < 6; attempt += 1)
      await browser.post(form.action, [...form.hidden], fromAddress(3));
    const limited = await browser.post(form.action, [...form.hidden], fromAddress(3));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).not.toBeNull();
  });

  it('is linked from the sign-in page as "Create an account", carrying the pending authorization', async () => {
    const browser = new FormBrowser();
    const plain = await browser.get(url('/ui/login'));
    expect(plain.text).toContain('<a href="/ui/register">Create an account</a>');
  });
});

describe('/ui/account forms', () => {
  const actions = [
    '/ui/account/name',
    '/ui/account/sessions/end',
    '/ui/account/sign-out',
    '/ui/account/delete',
  ];

  it('sends a browser without a session to sign in, and refuses its POSTs with the 401 page', async () => {
    const browser = new FormBrowser();
    const page = await browser.get(url('/ui/account'));
    expect({ status: page.status, location: page.location }).toEqual({
      status: 302,
      location: url('/ui/login?next=account'),
    });
    for (const action of actions) {
      // Each from its own address: the deletion form counts against the deletion budget.
      const refused = await browser.post(
        url(action),
        [['csrf_token', 'a'.repeat(64)]],
        fromAddress((sequence += 1)),
      );
      expect(refused.status).toBe(401);
      expect(refused.text).toContain('You are not signed in');
    }
  });

  it("refuses every form without the session's CSRF token, and acts on none", async () => {
    const { browser, userId } = await signedInBrowser();
    const page = await browser.get(url('/ui/account'));
    const csrf = csrfOf(page);
    expect(csrf).toMatch(/^[0-9a-f]{64}$/);
    const other = await signIn(context.suite, await signUp(context.suite, 'other'));
    for (const action of actions) {
      for (const token of [[], [['csrf_token', 'b'.repeat(64)]]] as [string, string][][]) {
        const refused = await browser.post(
          url(action),
          [...token, ['name', 'Mallory'], ['session_id', other.sessionId], ['password', ACCOUNT_PASSWORD]],
          fromAddress(150 + (sequence += 1)),
        );
        expect({ status: refused.status, body: JSON.parse(refused.text) }).toEqual({
          status: 400,
          body: INVALID_CSRF,
        });
      }
    }
    const me = await accountCall<{ name: string | null }>(context.suite, 'GET', '/auth/me', {
      token: other.accessToken,
    });
    expect(me.body.name).toBeNull();
    expect((await browser.get(url('/ui/account'))).status).toBe(200);

    // Another user's session id is refused, and that session lives on.
    const foreign = await browser.post(url('/ui/account/sessions/end'), [
      ['csrf_token', csrf],
      ['session_id', other.sessionId],
    ]);
    expect(foreign.status).toBe(400);
    expect((await accountCall(context.suite, 'GET', '/auth/me', { token: other.accessToken })).status).toBe(
      200,
    );
    expect(userId).not.toBe('');
  });

  it('answers a name over 255 characters with the page and the rule at the field', async () => {
    const { browser } = await signedInBrowser();
    const csrf = csrfOf(await browser.get(url('/ui/account')));
    const refused = await browser.post(url('/ui/account/name'), [
      ['csrf_token', csrf],
      ['name', 'n'.repeat(256)],
    ]);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('id="name-error">The name must be 1 to 255 characters long.</p>');
  });

  it("counts the deletion form's password attempts per account, shared with DELETE /auth/account", async () => {
    const { browser, email } = await signedInBrowser();
    const csrf = csrfOf(await browser.get(url('/ui/account')));
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const wrong = await browser.post(
        url('/ui/account/delete'),
        [
          ['csrf_token', csrf],
          ['password', `wrong-Guess-${attempt}-xyz`],
        ],
        fromAddress(100 + attempt),
      );
      expect(wrong.status).toBe(401);
      expect(wrong.text).toContain('The password is incorrect. Your account was not deleted.');
    }
    const limited = await browser.post(
      url('/ui/account/delete'),
      [
        ['csrf_token', csrf],
        ['password', ACCOUNT_PASSWORD],
      ],
      fromAddress(110),
    );
    expect(limited.status).toBe(429);
    const { accessToken } = await signIn(context.suite, { email, password: ACCOUNT_PASSWORD });
    const api = await accountCall(context.suite, 'DELETE', '/auth/account', {
      token: accessToken,
      body: { password: ACCOUNT_PASSWORD },
      headers: fromAddress(111),
    });
    expect(api.status).toBe(429);
    expect((await accountCall(context.suite, 'GET', '/auth/me', { token: accessToken })).status).toBe(200);
  });
});
