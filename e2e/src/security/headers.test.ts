import { SESSION_COOKIE } from '@authz/shared/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  authorizationParameters,
  authorizeUrl,
  completeAuthorization,
  newAppClient,
  newUser,
  PASSWORD,
  redeemCode,
  useCodeFlow,
} from '../support/code-flow.js';
import { FormBrowser } from '@authz/shared/testing/form-browser';
import { basicAuth, machineClient, newClient } from '../support/tokens.js';

// docs/security.md "Headers": every kind of response, each as a browser behind our TLS proxy
// gets it (TRUST_PROXY names the proxy, X-Forwarded-Proto says https).
const flow = useCodeFlow({ TRUST_PROXY: '127.0.0.1' });

const HTTPS = { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' };

/** The responses under test, by what they carry. */
const responses = new Map<string, Response>();
/** Those that carry a token, a secret, a code or a CSRF token. */
const CARRYING_SECRETS = [
  'first-party tokens (POST /auth/login)',
  'OAuth tokens (POST /oauth/token)',
  'a client secret (POST /api/clients/)',
  'an API key (POST /api/clients/{id}/api-keys)',
  'a registered client secret (POST /oauth/register)',
  'an authorization code (302 from /oauth/authorize)',
  'a session cookie (303 from POST /ui/login)',
  'a login form with its CSRF token (GET /ui/login)',
  'the consents CSRF token (GET /consents/)',
  'introspection (POST /oauth/introspect)',
  'UserInfo claims (GET /oauth/userinfo)',
  'an error (400 from /oauth/token)',
] as const;
const PUBLIC = ['discovery (GET /.well-known/openid-configuration)', 'the stylesheet (GET /ui/assets/...)'];

/** The path and query of an absolute URL of the gateway. */
const pathOf = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

const send = (path: string, init: RequestInit = {}) =>
  fetch(`${flow.suite.baseUrl}${path}`, {
    redirect: 'manual',
    ...init,
    headers: { ...HTTPS, ...(init.headers as Record<string, string>) },
  });
const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: `Bearer ${flow.developer}` },
  body: JSON.stringify(body),
});
const form = (fields: Record<string, string>, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  body: new URLSearchParams(fields).toString(),
});

beforeAll(async () => {
  const user = await newUser(flow);
  const client = await newAppClient(flow);
  const machine = await newClient(flow.suite, flow.developer, machineClient);
  const browser = new FormBrowser();
  const authorized = await completeAuthorization(flow, browser, user, { client });
  const tokens = await redeemCode(flow, client, authorized.code!, authorized.verifier);
  const accessToken = tokens.body.access_token as string;
  const cookie = `${SESSION_COOKIE}=${browser.jar.get(SESSION_COOKIE)!}`;

  const loginPage = new FormBrowser();
  const start = await loginPage.get(authorizeUrl(flow.suite, authorizationParameters({ client })));
  const page = await send(pathOf(start.location!));
  const html = await page.clone().text();
  const hidden = Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map(([, name, value]) => [
      name!,
      value!,
    ]),
  );
  const preSession = page.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  const stylesheet = /<link[^>]+href="([^"]+)"/.exec(html)![1]!;

  const entries: [string, Promise<Response>][] = [
    [
      'first-party tokens (POST /auth/login)',
      send('/auth/login', { ...json({ email: user.email, password: PASSWORD }) }),
    ],
    [
      'OAuth tokens (POST /oauth/token)',
      send(
        '/oauth/token',
        form({ grant_type: 'client_credentials' }, basicAuth(machine.clientId, machine.clientSecret!)),
      ),
    ],
    ['a client secret (POST /api/clients/)', send('/api/clients/', json(machineClient))],
    [
      'an API key (POST /api/clients/{id}/api-keys)',
      send(`/api/clients/${machine.id}/api-keys`, json({ name: 'ci' })),
    ],
    [
      'a registered client secret (POST /oauth/register)',
      send('/oauth/register', { ...json({ redirect_uris: ['https://app.example/callback'] }) }),
    ],
    [
      'an authorization code (302 from /oauth/authorize)',
      send(pathOf(authorizeUrl(flow.suite, authorizationParameters({ client }))), { headers: { cookie } }),
    ],
    [
      'a session cookie (303 from POST /ui/login)',
      send('/ui/login', form({ ...hidden, email: user.email, password: PASSWORD }, { cookie: preSession })),
    ],
    ['a login form with its CSRF token (GET /ui/login)', Promise.resolve(page)],
    ['the consents CSRF token (GET /consents/)', send('/consents/', { headers: { cookie } })],
    [
      'introspection (POST /oauth/introspect)',
      send(
        '/oauth/introspect',
        form({ token: accessToken }, basicAuth(client.clientId, client.clientSecret!)),
      ),
    ],
    [
      'UserInfo claims (GET /oauth/userinfo)',
      send('/oauth/userinfo', { headers: { authorization: `Bearer ${accessToken}` } }),
    ],
    ['an error (400 from /oauth/token)', send('/oauth/token', form({ grant_type: 'password' }))],
    ['discovery (GET /.well-known/openid-configuration)', send('/.well-known/openid-configuration')],
    ['the stylesheet (GET /ui/assets/...)', send(stylesheet)],
  ];
  for (const [name, response] of entries) responses.set(name, await response);
});

const header = (name: string, field: string) => responses.get(name)!.headers.get(field);

describe('security headers on every kind of response', () => {
  it.each([...CARRYING_SECRETS, ...PUBLIC])('%s', (name) => {
    const response = responses.get(name)!;
    expect(response.status, name).toBeLessThan(500);
    expect(header(name, 'x-content-type-options')).toBe('nosniff');
    // RFC 9700 4.16: no framing, by CSP and by the older header.
    expect(header(name, 'x-frame-options')).toBe('DENY');
    const csp = header(name, 'content-security-policy')!;
    expect(csp).toContain("frame-ancestors 'none'");
    // default-src 'none'; no inline script or eval anywhere. Only the pages with passkey
    // ceremonies (docs/strong-authentication.md #20) load script, from our own origin alone.
    expect(csp).toMatch(/(^|;)\s*default-src 'none'/);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    const scriptSources = /(?:^|;)\s*script-src([^;]*)/.exec(csp)?.[1]?.trim();
    if (name === 'a login form with its CSRF token (GET /ui/login)') {
      expect(csp).toMatch(/;script-src 'self';connect-src 'self'$/);
    } else {
      expect(scriptSources).toBeUndefined();
    }
    // RFC 9700 4.2.4: codes, handles and tokens in URLs never leave in a Referer.
    expect(header(name, 'referrer-policy')).toBe('no-referrer');
    // RFC 6797: served over https (X-Forwarded-Proto from the trusted proxy).
    expect(header(name, 'strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
  });

  it.each(CARRYING_SECRETS)('%s: Cache-Control no-store (RFC 6749 5.1)', (name) => {
    expect(header(name, 'cache-control')).toBe('no-store');
  });

  it.each(PUBLIC)('%s: public, cacheable for an hour (interface.md 4.4)', (name) => {
    expect(responses.get(name)!.status).toBe(200);
    expect(header(name, 'cache-control')).toBe('public, max-age=3600');
  });

  it('the flows behind them succeeded, so the headers are those of real answers', () => {
    const statuses = Object.fromEntries([...responses].map(([name, response]) => [name, response.status]));
    expect(statuses).toEqual({
      'first-party tokens (POST /auth/login)': 200,
      'OAuth tokens (POST /oauth/token)': 200,
      'a client secret (POST /api/clients/)': 201,
      'an API key (POST /api/clients/{id}/api-keys)': 201,
      'a registered client secret (POST /oauth/register)': 201,
      'an authorization code (302 from /oauth/authorize)': 302,
      'a session cookie (303 from POST /ui/login)': 303,
      'a login form with its CSRF token (GET /ui/login)': 200,
      'the consents CSRF token (GET /consents/)': 200,
      'introspection (POST /oauth/introspect)': 200,
      'UserInfo claims (GET /oauth/userinfo)': 200,
      'an error (400 from /oauth/token)': 400,
      'discovery (GET /.well-known/openid-configuration)': 200,
      'the stylesheet (GET /ui/assets/...)': 200,
    });
    expect(
      responses.get('an authorization code (302 from /oauth/authorize)')!.headers.get('location'),
    ).toMatch(/[?&]code=/);
    expect(
      responses.get('a session cookie (303 from POST /ui/login)')!.headers.getSetCookie().join(),
    ).toContain(`${SESSION_COOKIE}=`);
  });
});
