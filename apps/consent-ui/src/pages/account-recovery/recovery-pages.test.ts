import { describe, expect, it } from 'vitest';
import { cookiesSet, heading, hiddenField } from '../../../test/consent-ui-harness.js';
import { expectHtmlPage } from '../../../test/page-shape.js';
import { useConsentUi } from '../../../test/use-consent-ui.js';

// docs/hosted-pages.md #25: the pages a mailed link opens change nothing on GET, and their forms
// are bound to the pre-session cookie, the form and the link's token.
const fixture = useConsentUi();
const TOKEN = 'ab'.repeat(32);
const CSRF_REFUSAL = { error: 'invalid_csrf_token', statusCode: 400, code: 'INVALID_CSRF_TOKEN' };

describe('link pages', () => {
  it.each([
    ['/ui/reset-password', 'Choose a new password'],
    ['/ui/verify-email', 'Confirm your email address'],
  ])('GET %s renders a form for the link', async (path, title) => {
    const page = await fixture.ui.render('GET', path, { query: { token: TOKEN } });
    expectHtmlPage(page, 200);
    expect(heading(page)).toBe(title);
    expect(hiddenField(page, 'token')).toBe(TOKEN);
    expect(hiddenField(page, 'csrf_token')).toMatch(/^[0-9a-f]{64}$/);
    expect(cookiesSet(page)['__Host-service_login']).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each(['/ui/reset-password', '/ui/verify-email'])(
    'GET %s without a well-formed token is the 400 page',
    async (path) => {
      for (const query of [{}, { token: 'abc' }, { token: `${TOKEN}0` }] as Record<string, string>[]) {
        const page = await fixture.ui.render('GET', path, { query });
        expectHtmlPage(page, 400);
        expect(heading(page)).toBe('This link is invalid or has expired');
      }
    },
  );

  it('refuses a form token of another link, another form or another browser', async () => {
    const page = await fixture.ui.render('GET', '/ui/verify-email', { query: { token: TOKEN } });
    const preSession = cookiesSet(page)['__Host-service_login']!;
    const csrfToken = hiddenField(page, 'csrf_token')!;
    const attempts = [
      { path: '/ui/verify-email', cookie: preSession, token: 'cd'.repeat(32) },
      { path: '/ui/reset-password', cookie: preSession, token: TOKEN },
      { path: '/ui/verify-email', cookie: 'ef'.repeat(32), token: TOKEN },
    ];
    for (const { path, cookie, token } of attempts) {
      const refused = await fixture.ui.render('POST', path, {
        cookies: { '__Host-service_login': cookie },
        form: { token, csrf_token: csrfToken, password: 'a fine passphrase' },
      });
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.body)).toEqual(CSRF_REFUSAL);
    }
  });

  it('links the sign-in page to the forgotten-password form', async () => {
    const page = await fixture.ui.render('GET', '/ui/login');
    expect(page.body).toContain('<a href="/ui/forgot-password">Forgot password?</a>');
    const form = await fixture.ui.render('GET', '/ui/forgot-password');
    expectHtmlPage(form, 200);
    expect(heading(form)).toBe('Forgot your password?');
  });

  it('asks a browser without a session to sign in and come back', async () => {
    for (const [path, next] of [
      ['/ui/account/password', 'account-password'],
      ['/ui/account/email', 'account-email'],
    ] as const) {
      const page = await fixture.ui.render('GET', path);
      expectHtmlPage(page, 401);
      expect(page.body).toContain(`href="/ui/login?next=${next}"`);
    }
  });
});
