import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveLoginCsrfKey } from '../cookies/login-csrf.js';
import {
  cookiesSet,
  heading,
  hiddenField,
  startConsentUi,
  type RunningConsentUi,
} from '../../test/consent-ui-harness.js';
import { expectHtmlPage } from '../../test/page-shape.js';

// HostedPagesService over real gRPC with nothing listening upstream: every page here must be
// answered by consent-ui alone (an upstream call would fail and show as a 500 page).
let ui: RunningConsentUi;

/** An address where nothing listens. */
async function closedAddress(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return `127.0.0.1:${port}`;
}

beforeAll(async () => {
  const nowhere = await closedAddress();
  ui = await startConsentUi({ identity: nowhere, oauth: nowhere });
});

afterAll(async () => {
  await ui?.close();
});

const CSRF_BODY = { error: 'invalid_csrf_token', statusCode: 400, code: 'INVALID_CSRF_TOKEN' };
const PRE_SESSION = 'c'.repeat(64);

function expectedLoginCsrf(preSession: string, handle = ''): string {
  return createHmac('sha256', deriveLoginCsrfKey(ui.secretHashKey))
    .update(`login:${preSession}:${handle}`)
    .digest('hex');
}

describe('GET /ui/assets/style.css', () => {
  it('serves the stylesheet the pages link to', async () => {
    const page = await ui.render('GET', '/ui/assets/style.css');
    expect(page.status).toBe(200);
    expect(page.contentType).toBe('text/css; charset=utf-8');
    expect(page.body).toBe(readFileSync(new URL('../html/style.css', import.meta.url), 'utf8'));
    expect(page.setCookies).toEqual([]);
  });
});

describe('GET /ui/login without a pending authorization', () => {
  it('shows the sign-in form and sets the pre-session cookie', async () => {
    const page = await ui.render('GET', '/ui/login');
    expectHtmlPage(page, 200);
    expect(heading(page)).toBe('Sign in');
    // Nothing to redirect on to: form-action stays the issuer's own.
    expect(page.formActionOrigins).toEqual([]);
    expect(page.setCookies).toHaveLength(1);
    expect(page.setCookies[0]).toMatch(
      /^__Host-service_login=[0-9a-f]{64}; Path=\/; Secure; HttpOnly; SameSite=Lax; Max-Age=600$/,
    );
    const preSession = cookiesSet(page)['__Host-service_login']!;
    expect(hiddenField(page, 'csrf_token')).toBe(expectedLoginCsrf(preSession));
    expect(hiddenField(page, 'handle')).toBeUndefined();
    // docs/contract.md "Hosted pages": one form, type=email name=email, type=password name=password, one submit.
    expect(page.body.match(/<form /g)).toHaveLength(1);
    expect(page.body).toContain('<form method="post" action="/ui/login" id="sign-in-form">');
    expect(page.body.match(/<input[^>]*type="email"[^>]*>/g)).toHaveLength(1);
    expect(page.body).toMatch(/<input[^>]*type="email"[^>]*name="email"/);
    expect(page.body).toMatch(
      /<input[^>]*type="password"[^>]*name="password"[^>]*autocomplete="current-password"/,
    );
    expect(page.body.match(/type="submit"/g)).toHaveLength(1);
    expect(page.body).not.toContain('role="alert"');
  });

  it('keeps a well-formed pre-session cookie and replaces an ill-formed one', async () => {
    const kept = await ui.render('GET', '/ui/login', { cookies: { '__Host-service_login': PRE_SESSION } });
    expect(kept.setCookies).toEqual([]);
    expect(hiddenField(kept, 'csrf_token')).toBe(expectedLoginCsrf(PRE_SESSION));

    const replaced = await ui.render('GET', '/ui/login', {
      cookies: { '__Host-service_login': 'C'.repeat(64) },
    });
    const fresh = cookiesSet(replaced)['__Host-service_login'];
    expect(fresh).toMatch(/^[0-9a-f]{64}$/);
    expect(hiddenField(replaced, 'csrf_token')).toBe(expectedLoginCsrf(fresh!));
  });

  it('issues a different pre-session to each browser', async () => {
    const first = cookiesSet(await ui.render('GET', '/ui/login'))['__Host-service_login'];
    const second = cookiesSet(await ui.render('GET', '/ui/login'))['__Host-service_login'];
    expect(first).not.toBe(second);
  });
});

describe('POST /ui/login CSRF refusals (docs/decisions.md #17, #19)', () => {
  const credentials = { email: 'alice@example.com', password: 'correct horse battery' };

  it.each([
    ['no pre-session cookie', {}, () => ({ csrf_token: expectedLoginCsrf(PRE_SESSION) })],
    ['no csrf_token', { '__Host-service_login': PRE_SESSION }, () => ({})],
    ['an empty csrf_token', { '__Host-service_login': PRE_SESSION }, () => ({ csrf_token: '' })],
    [
      'the token of another browser',
      { '__Host-service_login': PRE_SESSION },
      () => ({ csrf_token: expectedLoginCsrf('d'.repeat(64)) }),
    ],
    [
      'the token of another pending authorization',
      { '__Host-service_login': PRE_SESSION },
      () => ({ csrf_token: expectedLoginCsrf(PRE_SESSION, 'other-handle'), handle: 'this-handle' }),
    ],
    [
      'a token made for no pending authorization, sent with one',
      { '__Host-service_login': PRE_SESSION },
      () => ({ csrf_token: expectedLoginCsrf(PRE_SESSION), handle: 'this-handle' }),
    ],
    [
      'an ill-formed pre-session cookie',
      { '__Host-service_login': 'short' },
      () => ({ csrf_token: expectedLoginCsrf('short') }),
    ],
  ])('refuses %s with exactly the JSON body', async (_case, cookies, token) => {
    const page = await ui.render('POST', '/ui/login', { cookies, form: { ...credentials, ...token() } });
    expect(page.status).toBe(400);
    expect(page.contentType).toBe('application/json; charset=utf-8');
    expect(JSON.parse(page.body)).toEqual(CSRF_BODY);
    expect(page.body).toBe(JSON.stringify(CSRF_BODY));
    expect(page.setCookies).toEqual([]);
    expect(page.location).toBeUndefined();
  });
});

describe('routing', () => {
  it.each([
    '/',
    '/ui',
    '/ui/',
    '/ui/unknown',
    '/ui/login/extra',
    '/ui/resume',
    '/ui/resume/a/b',
    '/ui/assets/x.css',
  ])('%s is the 404 page', async (path) => {
    const page = await ui.render('GET', path);
    expectHtmlPage(page, 404);
    expect(heading(page)).toBe('Page not found');
  });

  it.each([
    ['POST', '/ui/resume/abc', 'GET'],
    ['POST', '/ui/assets/style.css', 'GET'],
    ['DELETE', '/ui/login', 'GET and POST'],
    ['PUT', '/ui/consent', 'GET and POST'],
  ])('%s %s is the 405 page naming %s', async (method, path, allowed) => {
    const page = await ui.render(method, path);
    expectHtmlPage(page, 405);
    expect(page.body).toContain(`This page accepts only ${allowed} requests.`);
  });

  it('refuses a field sent twice with the 400 page', async () => {
    const page = await ui.render('GET', '/ui/login', {
      query: [
        ['handle', 'a'],
        ['handle', 'b'],
      ],
    });
    expectHtmlPage(page, 400);
    expect(heading(page)).toBe('This request is not valid');
  });

  it('answers a malformed handle as expired without asking oauth', async () => {
    for (const path of ['/ui/resume/%ZZ', `/ui/resume/${'a'.repeat(257)}`, '/ui/resume/a%20b']) {
      const page = await ui.render('GET', path);
      expectHtmlPage(page, 400);
      expect(heading(page)).toBe('This sign-in request has expired or was already used');
    }
  });

  it('shows an unreachable upstream as the 500 page, without detail', async () => {
    const page = await ui.render('GET', '/ui/login', { query: { handle: 'abc' } });
    expectHtmlPage(page, 500);
    expect(heading(page)).toBe('Something went wrong');
    expect(page.body).not.toMatch(/unavailable|ECONNREFUSED|127\.0\.0\.1|grpc|stack/i);
  });
});

describe('RenderPage outcomes', () => {
  it('answers every page but a sign-in attempt as the plain page outcome', async () => {
    const form = await ui.pages.renderPage({
      method: 'GET',
      path: '/ui/login',
      origin: { ip: '', userAgent: '' },
    });
    expect(form.outcome.case).toBe('page');
    // A refused CSRF token never reaches identity: no sign-in was attempted.
    const refused = await ui.pages.renderPage({
      method: 'POST',
      path: '/ui/login',
      form: [{ name: 'email', value: 'alice@example.com' }],
      cookies: { '__Host-service_login': PRE_SESSION },
    });
    expect(refused.outcome).toMatchObject({ case: 'page', value: { status: 400 } });
  });
});

describe('RenderAuthorizationError', () => {
  it('is a 400 page with the code and description, escaped, and no way back to the client', async () => {
    const { page } = await ui.pages.renderAuthorizationError({
      error: 'invalid_request',
      errorDescription: 'redirect_uri <script>alert(1)</script> is not registered',
    });
    expectHtmlPage(page!, 400);
    expect(heading(page!)).toBe('This request cannot be completed');
    expect(page!.body).toContain('<code>invalid_request</code>');
    expect(page!.body).toContain('redirect_uri &lt;script&gt;alert(1)&lt;/script&gt; is not registered');
    expect(page!.body).not.toMatch(/<a\s|<form/);
    expect(page!.location).toBeUndefined();
  });

  it('leaves out an empty description', async () => {
    const { page } = await ui.pages.renderAuthorizationError({
      error: 'invalid_client',
      errorDescription: '',
    });
    expect(page!.body).toContain('<code>invalid_client</code>');
    expect(page!.body).not.toContain('class="muted"');
  });
});

describe('an issuer with a path', () => {
  it('puts every link and form action under it', async () => {
    const nowhere = await closedAddress();
    const prefixed = await startConsentUi({
      identity: nowhere,
      oauth: nowhere,
      issuer: 'https://example.com/auth',
    });
    try {
      const page = await prefixed.render('GET', '/ui/login');
      expectHtmlPage(page, 200);
      expect(page.body).toContain('<form method="post" action="/auth/ui/login" id="sign-in-form">');
      expect(page.body).toMatch(/href="\/auth\/ui\/assets\/style\.css\?v=/);
    } finally {
      await prefixed.close();
    }
  });
});
