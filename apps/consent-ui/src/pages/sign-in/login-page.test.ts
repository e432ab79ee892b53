import { SignInFailure, type Page } from '@authz/proto/consentui/v1/consentui';
import { describe, expect, it } from 'vitest';
import {
  cookiesSet,
  heading,
  hiddenField,
  TEST_ORIGIN,
  type RenderedPage,
} from '../../../test/consent-ui-harness.js';
import { expectHtmlPage } from '../../../test/page-shape.js';
import { FAKE_REDIRECT_ORIGIN } from '../../../test/fake-authorization.js';
import { useConsentUi } from '../../../test/use-consent-ui.js';

const fixture = useConsentUi();
const alice = fixture.identity.addUser('alice@example.com', 'correct horse battery');
const EXPIRED = 'This sign-in request has expired or was already used';
const FAILED = 'The email or password is incorrect.';

let handles = 0;
function pendingAuthorization(clientName = 'Acme Notes'): string {
  const handle = `pending-${++handles}`;
  fixture.authorization.pending.set(handle, { clientName, scopes: ['openid'] });
  return handle;
}

/** GET /ui/login as a fresh browser: the page, its pre-session cookie and its form token. */
async function openLogin(handle?: string) {
  const page = await fixture.ui.render('GET', '/ui/login', { query: handle === undefined ? {} : { handle } });
  const preSession = cookiesSet(page)['__Host-service_login']!;
  return { page, preSession, csrfToken: hiddenField(page, 'csrf_token')! };
}

async function submit(handle: string | undefined, email: string, password: string): Promise<RenderedPage> {
  const { preSession, csrfToken } = await openLogin(handle);
  return fixture.ui.render('POST', '/ui/login', {
    cookies: { '__Host-service_login': preSession },
    form: { ...(handle === undefined ? {} : { handle }), csrf_token: csrfToken, email, password },
  });
}

describe('GET /ui/login?handle=', () => {
  it('names the client of the pending authorization and carries the handle', async () => {
    const handle = pendingAuthorization('Acme <Notes> & "Co"');
    const { page } = await openLogin(handle);
    expectHtmlPage(page, 200);
    expect(heading(page)).toBe('Sign in to continue to Acme &lt;Notes&gt; &amp; &quot;Co&quot;');
    expect(page.body).not.toContain('<Notes>');
    expect(hiddenField(page, 'handle')).toBe(handle);
    expect(fixture.authorization.pending.has(handle)).toBe(true);
    // The sign-in may be redirected on to the client: the gateway lets form-action reach it.
    expect(page.formActionOrigins).toEqual([FAKE_REDIRECT_ORIGIN]);
  });

  it('answers an unknown or used handle with the expired page', async () => {
    const page = await fixture.ui.render('GET', '/ui/login', { query: { handle: 'never-issued' } });
    expectHtmlPage(page, 400);
    expect(heading(page)).toBe(EXPIRED);
    expect(page.setCookies).toEqual([]);
  });

  it('does not pass a malformed handle on', async () => {
    const before = fixture.authorization.calls.length;
    const page = await fixture.ui.render('GET', '/ui/login', { query: { handle: 'a"><script>' } });
    expectHtmlPage(page, 400);
    expect(heading(page)).toBe(EXPIRED);
    expect(fixture.authorization.calls.length).toBe(before);
  });

  it('shows the form even to a signed-in browser (oauth sent it here to sign in again)', async () => {
    const handle = pendingAuthorization();
    const session = fixture.identity.openBrowserSession(alice);
    const page = await fixture.ui.render('GET', '/ui/login', {
      query: { handle },
      cookies: { '__Host-service_session': session.token },
    });
    expectHtmlPage(page, 200);
    expect(page.body).toContain('name="password"');
  });
});

describe('GET /ui/login without a handle', () => {
  it('shows the signed-in page to a browser with a session', async () => {
    const session = fixture.identity.openBrowserSession(alice);
    const page = await fixture.ui.render('GET', '/ui/login', {
      cookies: { '__Host-service_session': session.token },
    });
    expectHtmlPage(page, 200);
    expect(heading(page)).toBe('You are signed in');
    expect(page.body).toContain('You are signed in as <strong>alice@example.com</strong>.');
    expect(page.body).not.toContain('<form');
  });

  it('shows the form when the session cookie signs nobody in', async () => {
    const page = await fixture.ui.render('GET', '/ui/login', {
      cookies: { '__Host-service_session': 'f'.repeat(64) },
    });
    expectHtmlPage(page, 200);
    expect(heading(page)).toBe('Sign in');
    expect(page.body).toContain('name="password"');
  });
});

describe('POST /ui/login', () => {
  it('opens a browser session and goes on to resume the pending authorization', async () => {
    const handle = pendingAuthorization();
    const page = await submit(handle, alice.email, alice.password);
    expect(page.status).toBe(303);
    expect(page.location).toBe(`/ui/resume/${handle}`);
    expect(page.body).toBe('');
    // The session travels as the outcome, for the gateway to set (docs/hosted-pages.md #2).
    const token = page.signedIn!.sessionToken;
    expect(fixture.identity.browserSessions.get(token)?.userId).toBe(alice.id);
    expect(page.signedIn).toEqual({ sessionToken: token });
    expect(page.setCookies).toEqual([
      '__Host-service_login=; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=0',
    ]);
    expect(fixture.identity.signIns.at(-1)).toEqual({
      email: alice.email,
      browserSession: true,
      origin: expect.objectContaining(TEST_ORIGIN),
    });
    // Signing in consumes nothing: resuming does.
    expect(fixture.authorization.pending.has(handle)).toBe(true);
  });

  it('without a handle lands on the signed-in page', async () => {
    const page = await submit(undefined, alice.email, alice.password);
    expect(page.status).toBe(303);
    expect(page.location).toBe('/ui/login');
    const token = cookiesSet(page)['__Host-service_session']!;
    const landing = await fixture.ui.render('GET', page.location!, {
      cookies: { '__Host-service_session': token },
    });
    expect(heading(landing)).toBe('You are signed in');
  });

  it('shows the form again, 401, with one generic message and the email kept', async () => {
    const handle = pendingAuthorization();
    const email = 'alice"<b>@example.com';
    fixture.identity.addUser(email, 'another password');
    const page = await submit(handle, email, 'wrong password');
    expectHtmlPage(page, 401);
    expect(heading(page)).toBe('Sign in to continue to Acme Notes');
    expect(page.body).toContain(`<p class="alert" role="alert" id="sign-in-error">${FAILED}</p>`);
    expect(page.body).toContain('value="alice&quot;&lt;b&gt;@example.com"');
    expect(page.body).toMatch(/aria-invalid="true"\s+aria-describedby="sign-in-error"/);
    expect(page.body).not.toContain('wrong password');
    expect(hiddenField(page, 'handle')).toBe(handle);
    expect(page.setCookies).toEqual([]);
    expect(page.signInFailed).toBe(SignInFailure.INVALID_CREDENTIALS);
    expect(page.signedIn).toBeUndefined();
  });

  it('keeps the form usable after a failure: the same browser signs in with its token', async () => {
    const handle = pendingAuthorization();
    const { preSession, csrfToken } = await openLogin(handle);
    const cookies = { '__Host-service_login': preSession };
    const failed = await fixture.ui.render('POST', '/ui/login', {
      cookies,
      form: { handle, csrf_token: csrfToken, email: alice.email, password: 'nope' },
    });
    expect(failed.status).toBe(401);
    const retry = await fixture.ui.render('POST', '/ui/login', {
      cookies,
      form: {
        handle,
        csrf_token: hiddenField(failed, 'csrf_token')!,
        email: alice.email,
        password: alice.password,
      },
    });
    expect(retry.status).toBe(303);
  });

  it('answers an unknown email exactly as a wrong password (no enumeration)', async () => {
    const scrub = (page: Page) => page.body.replace(/value="[^"]*"/g, 'value=""');
    const handle = pendingAuthorization();
    const unknown = await submit(handle, 'nobody@example.com', 'whatever');
    const wrong = await submit(handle, alice.email, 'whatever');
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(scrub(unknown)).toBe(scrub(wrong));
  });

  it('answers missing credentials with the same message', async () => {
    const page = await submit(undefined, '', '');
    expectHtmlPage(page, 401);
    expect(page.body).toContain(FAILED);
  });

  it('shows the 429 page when identity refuses for rate', async () => {
    fixture.identity.rateLimited.add('limited@example.com');
    const page = await submit(undefined, 'limited@example.com', 'whatever');
    expectHtmlPage(page, 429);
    expect(heading(page)).toBe('Too many attempts');
    expect(page.signInFailed).toBe(SignInFailure.RATE_LIMITED);
  });

  it('shows the expired page when the handle expired while the form was open', async () => {
    const handle = pendingAuthorization();
    const { preSession, csrfToken } = await openLogin(handle);
    fixture.authorization.pending.delete(handle);
    const page = await fixture.ui.render('POST', '/ui/login', {
      cookies: { '__Host-service_login': preSession },
      form: { handle, csrf_token: csrfToken, email: alice.email, password: 'wrong' },
    });
    expectHtmlPage(page, 400);
    expect(heading(page)).toBe(EXPIRED);
  });

  it('checks CSRF before asking identity anything', async () => {
    const before = fixture.identity.signIns.length;
    const page = await fixture.ui.render('POST', '/ui/login', {
      cookies: { '__Host-service_login': 'a'.repeat(64) },
      form: { csrf_token: 'b'.repeat(64), email: alice.email, password: alice.password },
    });
    expect(page.status).toBe(400);
    expect(JSON.parse(page.body)).toEqual({
      error: 'invalid_csrf_token',
      statusCode: 400,
      code: 'INVALID_CSRF_TOKEN',
    });
    expect(fixture.identity.signIns.length).toBe(before);
  });
});
