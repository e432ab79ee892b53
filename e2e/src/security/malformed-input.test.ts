import { describe, expect, it } from 'vitest';
import { useSuite } from '../support/use-suite.js';

// The defects the hostile-input suite found, pinned with exact answers (docs/security.md #2).
// Each was a 500 (or a foreign body) before the fix named beside it.
const context = useSuite({ gatewayEnv: { RATE_LIMIT_ENABLED: 'false' } });

const JSON_TYPE = { 'content-type': 'application/json' };
const FORM_TYPE = { 'content-type': 'application/x-www-form-urlencoded' };
const MALFORMED = { error: 'Malformed request body', statusCode: 400, code: 'MALFORMED_BODY' };
const INVALID_REQUEST = (statusCode: number) => ({
  error: 'invalid_request',
  code: 'INVALID_REQUEST',
  statusCode,
});

async function send(
  method: 'GET' | 'POST',
  url: string,
  headers: Record<string, string> = {},
  payload?: string,
) {
  const response = await context.suite.gateway.app.inject({
    method,
    url,
    headers,
    ...(payload ? { payload } : {}),
  });
  return { status: response.statusCode, body: JSON.parse(response.body) as unknown };
}

describe('JSON bodies (http/json-body.ts)', () => {
  it.each([
    ['nested 40,000 levels deep', '['.repeat(40_000) + ']'.repeat(40_000)],
    ['holding U+0000 in a value', '{"redirect_uris":["https://app.example/cb"],"client_name":"a\\u0000b"}'],
    ['holding U+0000 in a member name', '{"redirect_uris":["https://app.example/cb"],"a\\u0000":1}'],
    ['holding a lone surrogate', '{"redirect_uris":["https://app.example/callback\\ud8c6"]}'],
  ])('%s: 400 at /oauth/register', async (_name, payload) => {
    expect(await send('POST', '/oauth/register', JSON_TYPE, payload)).toEqual({
      status: 400,
      body: INVALID_REQUEST(400),
    });
  });

  it.each([
    ['U+0000', '{"email":"a\\u0000@example.com","password":"x"}'],
    ['a lone surrogate', '{"email":"a\\udfff@example.com","password":"x"}'],
  ])('%s at /auth/login: 400 MALFORMED_BODY', async (_name, payload) => {
    expect(await send('POST', '/auth/login', JSON_TYPE, payload)).toEqual({ status: 400, body: MALFORMED });
  });

  it('an escaped backslash before u0000 is plain text, not U+0000', async () => {
    const response = await send(
      'POST',
      '/auth/login',
      JSON_TYPE,
      '{"email":"a\\\\u0000@example.com","password":"x"}',
    );
    expect(response.status).toBe(401);
  });
});

describe('U+0000 in forms and queries (oauth/form-body.ts, http/query-fields.ts)', () => {
  it('a form field: 400', async () => {
    const payload = 'grant_type=refresh_token&client_id=authz-first-party&refresh_token=%00';
    expect(await send('POST', '/oauth/token', FORM_TYPE, payload)).toEqual({
      status: 400,
      body: INVALID_REQUEST(400),
    });
  });

  it('a query parameter of the authorization endpoint: 400', async () => {
    expect(await send('GET', '/oauth/authorize?client_id=x&nonce=%00')).toEqual({
      status: 400,
      body: INVALID_REQUEST(400),
    });
  });
});

describe('non-form bodies at the form-only routes (formsOnly in oauth/form-body.ts)', () => {
  it.each(['/oauth/token', '/oauth/introspect', '/oauth/revoke', '/oauth/authorize', '/oauth/userinfo'])(
    'a JSON array at %s: 415 invalid_request, saying which body to send',
    async (url) => {
      const payload = '[{"name":"grant_type","value":"client_credentials"}]';
      expect(await send('POST', url, JSON_TYPE, payload)).toEqual({
        status: 415,
        body: {
          ...INVALID_REQUEST(415),
          error_description: 'Send the body as application/x-www-form-urlencoded',
        },
      });
    },
  );

  it.each(['/ui/login', '/ui/consent'])('a JSON array at %s: 415, as a page', async (url) => {
    const response = await context.suite.gateway.app.inject({
      method: 'POST',
      url,
      headers: JSON_TYPE,
      payload: '[[1,2]]',
    });
    expect([response.statusCode, response.headers['content-type']]).toEqual([
      415,
      'text/html; charset=utf-8',
    ]);
    expect(response.body).toContain('<h1>This request is not valid</h1>');
  });
});

describe('URLs the router refuses (frameworkErrors in plugins/error-handler.ts)', () => {
  it('a path that does not percent-decode: the 400 envelope with the security headers', async () => {
    const response = await context.suite.gateway.app.inject({ method: 'GET', url: '/api/clients/%zz' });
    expect({ status: response.statusCode, body: JSON.parse(response.body) as unknown }).toEqual({
      status: 400,
      body: {
        error: 'Validation error',
        statusCode: 400,
        code: 'VALIDATION_ERROR',
        details: [{ path: '(url)', message: 'is not a valid URL' }],
      },
    });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-request-id']).toEqual(expect.any(String));
  });

  it('... and under /ui/, the 400 page with the security headers', async () => {
    const response = await context.suite.gateway.app.inject({ method: 'GET', url: '/ui/%zz' });
    expect([response.statusCode, response.headers['content-type']]).toEqual([
      400,
      'text/html; charset=utf-8',
    ]);
    expect(response.body).toContain('<h1>This request is not valid</h1>');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toEqual(
      expect.stringContaining("default-src 'none'"),
    );
  });

  it('an identifier longer than any we issue: 404', async () => {
    expect(await send('GET', `/api/clients/${'a'.repeat(300)}`)).toEqual({
      status: 404,
      body: { error: 'Not found', statusCode: 404, code: 'NOT_FOUND' },
    });
  });
});
