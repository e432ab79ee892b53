import { SESSION_COOKIE } from '@authz/shared/protocol';
import { describe, expect, it } from 'vitest';
import { metricValue } from '../support/metrics.js';
import {
  authorizationParameters,
  authorizeUrl,
  completeAuthorization,
  INVALID_CSRF,
  loginFields,
  newAppClient,
  openLoginForm,
  newUser,
  submitConsent,
  submitLogin,
  useCodeFlow,
  type AppClient,
} from '../support/code-flow.js';
import { FormBrowser, type BrowserResponse, type Fields } from '@authz/shared/testing/form-browser';

// interface.md 4.5, docs/decisions.md #17-19 and docs/contract.md "Hosted pages" through the gateway: the
// session cookie, CSRF on both forms, the single-use resume handle and the page headers.
const flow = useCodeFlow();

/** GET /oauth/authorize without a session: the login page URL, carrying the pending handle. */
async function startAuthorization(browser: FormBrowser, client: AppClient): Promise<string> {
  const response = await browser.get(authorizeUrl(flow.suite, authorizationParameters({ client })));
  expect(response.location).toMatch(new RegExp(`^${flow.suite.baseUrl}/ui/login\\?handle=`));
  return response.location!;
}

/** RFC 6265 section 4.1: one Set-Cookie line as its name, value and attribute list. */
function parseSetCookie(line: string) {
  const [pair = '', ...rest] = line.split(';').map((part) => part.trim());
  const attributes = rest.map((attribute) => attribute.split('=')[0]!.toLowerCase());
  return { name: pair.split('=')[0], value: pair.slice(pair.indexOf('=') + 1), attributes, rest };
}

const json = (response: BrowserResponse) => JSON.parse(response.text) as unknown;
const hidden = (name: string, value: string) => (fields: Fields) =>
  fields.map(([key, current]): [string, string] => [key, key === name ? value : current]);
const dropping = (name: string) => (fields: Fields) => fields.filter(([key]) => key !== name);

describe('the session cookie (interface.md 5, docs/decisions.md #18)', () => {
  it('is __Host-service_session: Secure, HttpOnly, SameSite=Lax, Path=/, no Domain', async () => {
    const user = await newUser(flow);
    const browser = new FormBrowser();
    const loginUrl = await startAuthorization(browser, await newAppClient(flow));
    const signedIn = await submitLogin(browser, loginUrl, user);
    expect(signedIn.status).toBe(303);

    const sessions = signedIn.setCookies.map(parseSetCookie).filter(({ name }) => name === SESSION_COOKIE);
    expect(sessions).toHaveLength(1);
    const [session] = sessions;
    expect(session!.value).toMatch(/^[0-9a-f]{64}$/);
    expect(session!.attributes).toEqual(expect.arrayContaining(['secure', 'httponly', 'samesite', 'path']));
    expect(session!.rest).toEqual(
      expect.arrayContaining([expect.stringMatching(/^SameSite=Lax$/i), 'Path=/']),
    );
    expect(session!.attributes).not.toContain('domain');
    // Every cookie the pages set is Secure (docs/decisions.md #18).
    for (const line of signedIn.setCookies) expect(parseSetCookie(line).attributes).toContain('secure');
  });

  it('wrong credentials: 401, no session, and the same answer for an unknown address', async () => {
    const user = await newUser(flow);
    const client = await newAppClient(flow);
    const answers = [];
    for (const credentials of [
      { email: user.email, password: 'wrong-Password-1234' },
      { email: `nobody-${Date.now()}@example.com`, password: user.password },
    ]) {
      const browser = new FormBrowser();
      const refused = await submitLogin(browser, await startAuthorization(browser, client), credentials);
      expect(refused.status).toBe(401);
      expect(browser.jar.get(SESSION_COOKIE)).toBeUndefined();
      answers.push(refused.text.replace(/value="[^"]*"/g, '').replace(/handle=[^"&]+/g, ''));
    }
    // No user enumeration: the two pages differ in nothing but per-request tokens.
    expect(answers[0]).toBe(answers[1]);
  });
});

describe('CSRF on the hosted forms (docs/decisions.md #17, #19)', () => {
  it('the login form: a wrong or missing token is 400 with the exact body, and signs nobody in', async () => {
    const user = await newUser(flow);
    const client = await newAppClient(flow);
    for (const tamper of [hidden('csrf_token', 'f'.repeat(64)), dropping('csrf_token')]) {
      const browser = new FormBrowser();
      const refused = await submitLogin(browser, await startAuthorization(browser, client), user, tamper);
      expect({ status: refused.status, body: json(refused) }).toEqual({ status: 400, body: INVALID_CSRF });
      expect(browser.jar.get(SESSION_COOKIE)).toBeUndefined();
    }
  });

  it('a sign-in posted from another browser, without the pre-session cookie, is refused (login CSRF)', async () => {
    const user = await newUser(flow);
    const victim = new FormBrowser();
    const form = await openLoginForm(victim, await startAuthorization(victim, await newAppClient(flow)));
    const attacker = new FormBrowser();
    const refused = await attacker.post(form.action, loginFields(form, user));
    expect({ status: refused.status, body: json(refused) }).toEqual({ status: 400, body: INVALID_CSRF });
    expect(attacker.jar.get(SESSION_COOKIE)).toBeUndefined();
  });

  it('the consent form: a wrong or missing token is 400 with the exact body, and decides nothing', async () => {
    const user = await newUser(flow);
    const client = await newAppClient(flow);
    const browser = new FormBrowser();
    const signedIn = await submitLogin(browser, await startAuthorization(browser, client), user);
    const resumed = await browser.get(signedIn.location!);
    const consentUrl = resumed.location!;
    expect(consentUrl).toMatch(new RegExp(`^${flow.suite.baseUrl}/ui/consent\\?handle=`));

    for (const tamper of [hidden('csrf_token', 'f'.repeat(64)), dropping('csrf_token')]) {
      const refused = await submitConsent(browser, consentUrl, 'allow', tamper);
      expect({ status: refused.status, body: json(refused) }).toEqual({ status: 400, body: INVALID_CSRF });
    }
    // The prompt is still there and still works.
    const allowed = await submitConsent(browser, consentUrl, 'allow');
    expect(allowed.status).toBe(303);
    expect(allowed.location).toMatch(/^https:\/\/app\.example\/callback\?code=/);
  });
});

describe('GET /ui/resume/{handle} (interface.md 3: single use, 10 minutes)', () => {
  it('resumes once; a second GET is a 400 page', async () => {
    const user = await newUser(flow);
    const browser = new FormBrowser();
    const signedIn = await submitLogin(
      browser,
      await startAuthorization(browser, await newAppClient(flow)),
      user,
    );
    const resumeUrl = signedIn.location!;
    expect([302, 303]).toContain((await browser.get(resumeUrl)).status);

    const again = await browser.get(resumeUrl);
    expect(again.status).toBe(400);
    expect(again.headers.get('content-type')).toMatch(/^text\/html/);
    expect(again.location).toBeUndefined();
  });

  it('without a session: back to the login page, and the handle is not consumed', async () => {
    const user = await newUser(flow);
    const client = await newAppClient(flow);
    const browser = new FormBrowser();
    const loginUrl = await startAuthorization(browser, client);
    const handle = new URL(loginUrl).searchParams.get('handle')!;

    const anonymous = await new FormBrowser().get(`${flow.suite.baseUrl}/ui/resume/${handle}`);
    expect([302, 303]).toContain(anonymous.status);
    expect(anonymous.location).toBe(`${flow.suite.baseUrl}/ui/login?handle=${handle}`);

    const signedIn = await submitLogin(browser, loginUrl, user);
    expect(signedIn.location).toBe(`${flow.suite.baseUrl}/ui/resume/${handle}`);
    const resumed = await browser.get(signedIn.location!);
    expect(resumed.location).toMatch(new RegExp(`^${flow.suite.baseUrl}/ui/consent\\?handle=`));
  });

  it('an expired handle is a 400 page', async () => {
    const user = await newUser(flow);
    const client = await newAppClient(flow);
    const browser = new FormBrowser();
    await completeAuthorization(flow, browser, user, { client });

    // A pending authorization of a signed-in browser that still has to resume: sign-in again.
    const session = browser.jar.get(SESSION_COOKIE)!;
    browser.jar.delete(SESSION_COOKIE);
    const keysBefore = await pendingKeys();
    const handle = new URL(await startAuthorization(browser, client)).searchParams.get('handle')!;
    const created = [...(await pendingKeys())].filter((key) => !keysBefore.has(key));
    expect(created.length).toBeGreaterThan(0);
    for (const key of created) {
      const ttl = await flow.redis.ttl(key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(600);
    }
    await flow.redis.del(...created);

    browser.jar.set(SESSION_COOKIE, session);
    const expired = await browser.get(`${flow.suite.baseUrl}/ui/resume/${handle}`);
    expect(expired.status).toBe(400);
    expect(expired.headers.get('content-type')).toMatch(/^text\/html/);
  });
});

/** This file's Redis keys that expire (pending authorizations among them), rate limits aside. */
async function pendingKeys(): Promise<Set<string>> {
  const keys = new Set<string>();
  let cursor = '0';
  do {
    const [next, batch] = await flow.redis.scan(cursor, 'MATCH', `${flow.redisPrefix}*`, 'COUNT', 1000);
    cursor = next;
    for (const key of batch) if (!key.startsWith(`${flow.redisPrefix}rl:`)) keys.add(key);
  } while (cursor !== '0');
  return keys;
}

describe('page headers', () => {
  it('pages: HTML, no-store, a CSP without unsafe-inline and no framing', async () => {
    const browser = new FormBrowser();
    const loginUrl = await startAuthorization(browser, await newAppClient(flow));
    const page = await browser.get(loginUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html; charset=utf-8/i);
    expect(page.headers.get('cache-control')).toBe('no-store');
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    // Same-origin only: pages never answer CORS.
    expect(page.headers.get('access-control-allow-origin')).toBeNull();
  });

  it("form-action also allows the client's origin, where the form's redirects end (CSP 3)", async () => {
    const user = await newUser(flow);
    const browser = new FormBrowser();
    const loginUrl = await startAuthorization(browser, await newAppClient(flow));
    const formAction = (page: BrowserResponse) =>
      /(?:^|;)\s*form-action ([^;]*)/.exec(page.headers.get('content-security-policy') ?? '')?.[1];

    // A sign-in may resume straight to the client (consent on record): its page allows it too.
    expect(formAction(await browser.get(loginUrl))).toBe("'self' https://app.example");
    const signedIn = await submitLogin(browser, loginUrl, user);
    const consentUrl = (await browser.get(signedIn.location!)).location!;
    expect(formAction(await browser.get(consentUrl))).toBe("'self' https://app.example");
    // A page whose forms end on our own origin keeps the global directive.
    expect(formAction(await new FormBrowser().get(`${flow.suite.baseUrl}/ui/login`))).toBe("'self'");
  });

  it('the stylesheet is cacheable; a missing asset is not', async () => {
    const browser = new FormBrowser();
    const loginUrl = await startAuthorization(browser, await newAppClient(flow));
    const page = await browser.get(loginUrl);
    const href = /<link[^>]+href="([^"]+)"/.exec(page.text)?.[1];
    expect(href).toMatch(/^\/ui\/assets\//);
    const sheet = await browser.get(new URL(href!, loginUrl).toString());
    expect(sheet.status).toBe(200);
    expect(sheet.headers.get('content-type')).toMatch(/^text\/css/);
    expect(sheet.headers.get('cache-control')).toBe('public, max-age=3600');
    const missing = await browser.get(`${flow.suite.baseUrl}/ui/assets/nothing.css`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('cache-control')).toBe('no-store');
  });

  it('unknown pages are 404; a JSON body is 415', async () => {
    expect((await new FormBrowser().get(`${flow.suite.baseUrl}/ui/nowhere`)).status).toBe(404);
    const response = await fetch(`${flow.suite.baseUrl}/ui/consent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    // docs/hosted-pages.md "Errors the gateway renders": a page, never the JSON envelope.
    expect(response.status).toBe(415);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const page = await response.text();
    expect(page).toContain('<title>This request is not valid</title>');
    expect(page).toContain('<p>Go back to the application you came from and start again.</p>');
  });
});

describe('login_attempts_total (docs/decisions.md #24)', () => {
  it('counts hosted sign-ins by outcome', async () => {
    const read = async () => (await fetch(`${flow.suite.baseUrl}/metrics`)).text();
    const count = (text: string, outcome: string) => metricValue(text, 'login_attempts_total', { outcome });
    const user = await newUser(flow);
    const client = await newAppClient(flow);
    const before = await read();
    const ok = new FormBrowser();
    expect((await submitLogin(ok, await startAuthorization(ok, client), user)).status).toBe(303);
    const bad = new FormBrowser();
    const wrong = { email: user.email, password: 'wrong-Password-1234' };
    expect((await submitLogin(bad, await startAuthorization(bad, client), wrong)).status).toBe(401);
    const forged = new FormBrowser();
    const loginUrl = await startAuthorization(forged, client);
    expect((await submitLogin(forged, loginUrl, user, dropping('csrf_token'))).status).toBe(400);
    const after = await read();
    expect(count(after, 'success') - count(before, 'success')).toBe(1);
    expect(count(after, 'failure') - count(before, 'failure')).toBe(1);
    expect(count(after, 'invalid_request') - count(before, 'invalid_request')).toBe(1);
  });
});
