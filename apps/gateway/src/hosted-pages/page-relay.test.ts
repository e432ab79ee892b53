import { beforeEach, describe, expect, it } from 'vitest';
import { useStubbedGateway } from '../../test/stub-upstreams.js';

// docs/gateway-routes.md #1 and #8: consent-ui renders every /ui/* page from what the gateway
// parsed of the request; the gateway writes back the page's status, type, body, Location and
// Set-Cookie as given, under its own security headers, widening only form-action.
const gateway = useStubbedGateway();
const ORIGIN = { ip: '127.0.0.1', userAgent: 'page-test/1.0' };

type PageInit = {
  status: number;
  contentType: string;
  body: string;
  location?: string;
  setCookies?: string[];
  formActionOrigins?: string[];
};

function answer(page: PageInit): void {
  gateway.stubs.hostedPages = {
    renderPage: async () => ({
      outcome: { case: 'page' as const, value: { setCookies: [], formActionOrigins: [], ...page } },
    }),
  };
}

function formActionOf(response: { headers: Record<string, unknown> }): string | undefined {
  const policy = String(response.headers['content-security-policy']);
  return policy.split(';').find((directive) => directive.startsWith('form-action'));
}

beforeEach(() => {
  gateway.calls.length = 0;
});

describe('hosted pages', () => {
  it('hands consent-ui the query fields, cookies and origin of a GET, and relays the page', async () => {
    answer({
      status: 200,
      contentType: 'text/html; charset=utf-8',
      body: '<h1>Sign in</h1>',
      setCookies: ['__Host-csrf=abc; Path=/; Secure; HttpOnly; SameSite=Lax'],
    });

    const response = await gateway.app.inject({
      method: 'GET',
      url: '/ui/login/?handle=h%2B1&lang=en&lang=de',
      headers: { cookie: '__Host-service_session=s1; theme=dark', 'user-agent': ORIGIN.userAgent },
    });

    expect(gateway.requests('hostedPages', 'renderPage')).toEqual([
      {
        // Routes answer with and without a trailing slash (docs/errors.md); consent-ui sees one spelling.
        method: 'GET',
        path: '/ui/login',
        query: [
          { name: 'handle', value: 'h+1' },
          { name: 'lang', value: 'en' },
          { name: 'lang', value: 'de' },
        ],
        form: [],
        cookies: { '__Host-service_session': 's1', theme: 'dark' },
        origin: ORIGIN,
      },
    ]);
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('<h1>Sign in</h1>');
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['set-cookie']).toEqual([
      '__Host-csrf=abc; Path=/; Secure; HttpOnly; SameSite=Lax',
    ]);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(formActionOf(response)).toBe("form-action 'self'");
  });

  it('hands over the form of a POST and relays a redirect with its cookies and form-action origin', async () => {
    answer({
      status: 303,
      contentType: 'text/plain; charset=utf-8',
      body: '',
      location: 'https://client.example/cb?code=c1&state=s1',
      setCookies: ['a=1; Path=/', 'b=2; Path=/'],
      formActionOrigins: ['https://client.example'],
    });

    const response = await gateway.app.inject({
      method: 'POST',
      url: '/ui/consent?handle=h2',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': ORIGIN.userAgent },
      payload: 'csrf_token=t1&decision=allow&scope=openid&scope=email',
    });

    expect(gateway.requests('hostedPages', 'renderPage')).toEqual([
      {
        method: 'POST',
        path: '/ui/consent',
        query: [{ name: 'handle', value: 'h2' }],
        form: [
          { name: 'csrf_token', value: 't1' },
          { name: 'decision', value: 'allow' },
          { name: 'scope', value: 'openid' },
          { name: 'scope', value: 'email' },
        ],
        cookies: {},
        origin: ORIGIN,
      },
    ]);
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('https://client.example/cb?code=c1&state=s1');
    expect(response.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(formActionOf(response)).toBe("form-action 'self' https://client.example");
  });

  it('lets a stylesheet be cached for an hour, but not a missing one', async () => {
    answer({ status: 200, contentType: 'text/css; charset=utf-8', body: 'body{margin:0}' });
    const found = await gateway.app.inject({ method: 'GET', url: '/ui/assets/pages.css' });
    answer({ status: 404, contentType: 'text/plain; charset=utf-8', body: 'Not found' });
    const missing = await gateway.app.inject({ method: 'GET', url: '/ui/assets/nothing.css' });

    expect([found.statusCode, found.headers['content-type'], found.body]).toEqual([
      200,
      'text/css; charset=utf-8',
      'body{margin:0}',
    ]);
    expect(found.headers['cache-control']).toBe('public, max-age=3600');
    expect([missing.statusCode, missing.body]).toEqual([404, 'Not found']);
    expect(missing.headers['cache-control']).toBe('no-store');
  });

  it('sets the session cookie itself when consent-ui reports a sign-in, ahead of the page cookies', async () => {
    gateway.stubs.hostedPages = {
      renderPage: async () => ({
        outcome: {
          case: 'signedIn' as const,
          value: {
            sessionToken: 'tok_abc-123',
            page: {
              status: 303,
              contentType: 'text/plain; charset=utf-8',
              body: '',
              location: '/ui/consent?handle=h3',
              setCookies: ['__Host-login_csrf=; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=0'],
              formActionOrigins: [],
            },
          },
        },
      }),
    };

    const response = await gateway.app.inject({
      method: 'POST',
      url: '/ui/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=a%40example.com&password=pw&csrf_token=t',
    });

    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/ui/consent?handle=h3');
    expect(response.headers['set-cookie']).toEqual([
      '__Host-service_session=tok_abc-123; Path=/; Secure; HttpOnly; SameSite=Lax',
      '__Host-login_csrf=; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=0',
    ]);
  });

  it('answers 500 without relaying anything when a sign-in outcome carries no page', async () => {
    gateway.stubs.hostedPages = {
      renderPage: async () => ({
        outcome: { case: 'signedIn' as const, value: { sessionToken: 'tok_1' } },
      }),
    };

    const response = await gateway.app.inject({
      method: 'POST',
      url: '/ui/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=a%40example.com&password=pw&csrf_token=t',
    });

    expect(response.statusCode).toBe(500);
    expect(response.headers['set-cookie']).toBeUndefined();
  });
});
