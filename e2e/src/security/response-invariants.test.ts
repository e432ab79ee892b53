import { describe, expect, it } from 'vitest';
import { responseProblems, type ObservedResponse } from './response-invariants.js';
import { allowedRefusalWrites, refused } from '../support/write-log.js';

// The checker the hostile-input suite relies on must itself catch what it is for.
const context = {
  issuer: 'https://as.example',
  redirectUris: ['https://app.example/callback'],
  secrets: ['s3cr3t-client-secret-value'],
};

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'content-security-policy': "default-src 'none';form-action 'self';frame-ancestors 'none'",
  'cache-control': 'no-store',
};

function response(
  overrides: Partial<ObservedResponse> & { headers?: ObservedResponse['headers'] },
): ObservedResponse {
  return {
    method: 'POST',
    path: '/auth/login',
    status: 400,
    body: JSON.stringify({ error: 'Validation error', statusCode: 400, code: 'VALIDATION_ERROR' }),
    ...overrides,
    headers: { ...SECURITY_HEADERS, 'content-type': 'application/json; charset=utf-8', ...overrides.headers },
  };
}

const oauthError = (error: string, statusCode = 400) =>
  JSON.stringify({ error, code: error.toUpperCase(), statusCode });

describe('responseProblems', () => {
  it('knows the consents route by the path it saw, dot segments resolved (docs/decisions.md #20)', () => {
    const body = JSON.stringify({
      error: 'Unauthorized',
      statusCode: 401,
      code: 'UNAUTHORIZED',
      consents: [],
    });
    for (const path of ['/consents/', '/consents/.', '/consents/%2e']) {
      expect(responseProblems(response({ method: 'GET', path, status: 401, body }), context), path).toEqual(
        [],
      );
    }
    expect(
      responseProblems(response({ method: 'GET', path: '/api/clients/', status: 401, body }), context),
    ).toEqual(['envelope member consents']);
  });

  it('passes well-formed answers of every kind', () => {
    expect(responseProblems(response({}), context)).toEqual([]);
    expect(
      responseProblems(response({ path: '/oauth/token', body: oauthError('invalid_grant') }), context),
    ).toEqual([]);
    expect(
      responseProblems(
        response({
          method: 'GET',
          path: '/oauth/authorize',
          status: 302,
          body: '',
          headers: {
            location: 'https://app.example/callback?error=invalid_scope&iss=x',
            'content-type': undefined,
          },
        }),
        context,
      ),
    ).toEqual([]);
    expect(
      responseProblems(
        response({
          method: 'GET',
          path: '/ui/login',
          status: 200,
          body: '<!doctype html><p>Sign in</p>',
          headers: { 'content-type': 'text/html; charset=utf-8' },
        }),
        context,
      ),
    ).toEqual([]);
    expect(
      responseProblems(
        response({
          method: 'GET',
          path: '/.well-known/jwks.json',
          status: 200,
          body: '{"keys":[]}',
          headers: { 'cache-control': 'public, max-age=3600' },
        }),
        context,
      ),
    ).toEqual([]);
  });

  it('catches a server error, a stack, a database message and a leaked secret', () => {
    expect(
      responseProblems(response({ status: 500, body: oauthError('server_error', 500) }), context),
    ).toEqual(expect.arrayContaining(['answered 500']));
    const leaking = response({
      body: JSON.stringify({
        error: 'TypeError: x is undefined\n    at handler (/srv/app/src/auth/routes.ts:12:3)',
        statusCode: 400,
        code: 'BAD',
      }),
    });
    expect(responseProblems(leaking, context)).toEqual(
      expect.arrayContaining(['a stack frame in the response', 'a source file in the response']),
    );
    const sql = response({
      body: JSON.stringify({
        error: 'duplicate key value violates unique constraint',
        statusCode: 400,
        code: 'X',
      }),
    });
    expect(responseProblems(sql, context)).toEqual(['a database error in the response']);
    const secret = response({ headers: { 'x-debug': 'secret=s3cr3t-client-secret-value' } });
    expect(responseProblems(secret, context)).toEqual(['a secret of the suite in the response']);
  });

  it('catches the wrong envelope for the route', () => {
    expect(responseProblems(response({ path: '/oauth/token' }), context)).toContain(
      'OAuth error Validation error',
    );
    const described = JSON.stringify({ error: 'x', error_description: 'y', code: 'X', statusCode: 400 });
    expect(responseProblems(response({ body: described }), context)).toEqual([
      'envelope member error_description',
    ]);
    expect(
      responseProblems(
        response({ body: '{"error":"Bad","statusCode":400,"code":"BAD","stack":"x"}' }),
        context,
      ),
    ).toEqual(['envelope member stack']);
    expect(responseProblems(response({ body: 'Bad Request' }), context)).toEqual([
      'JSON content type with a body that is not JSON',
    ]);
    expect(
      responseProblems(
        response({ headers: { 'content-type': 'text/html' }, body: '<!doctype html>' }),
        context,
      ),
    ).toEqual(['an HTML page at /auth/login']);
  });

  it('catches a reflected script, an open redirect and missing security headers', () => {
    const page = response({
      method: 'GET',
      path: '/ui/login',
      status: 200,
      body: '<!doctype html><input value="<script>alert(1)</script>">',
      headers: { 'content-type': 'text/html' },
    });
    expect(responseProblems(page, context)).toEqual(['a <script> element in a page']);
    const redirect = response({
      method: 'GET',
      path: '/oauth/authorize',
      status: 302,
      body: '',
      headers: { location: 'https://app.example/callback.evil.example/?code=x' },
    });
    expect(responseProblems(redirect, context)).toEqual([
      'a redirect to https://app.example/callback.evil.example/?code=x',
    ]);
    const bare = response({
      headers: { 'x-frame-options': undefined, 'cache-control': 'public, max-age=60' },
    });
    expect(responseProblems(bare, context)).toEqual([
      'header x-frame-options: (absent)',
      'header cache-control: public, max-age=60',
    ]);
    // The suites speak plain http, where RFC 6797 section 7.2 forbids HSTS.
    const hstsOverHttp = response({
      headers: { 'strict-transport-security': 'max-age=31536000; includeSubDomains' },
    });
    expect(responseProblems(hstsOverHttp, context)).toEqual([
      'header strict-transport-security: max-age=31536000; includeSubDomains',
    ]);
  });
});

describe('refusals and what they may write', () => {
  const refusal = (method: string, path: string, status: number, body = '') => ({
    method,
    path,
    status,
    body,
  });

  it('counts error statuses and error redirects as refusals', () => {
    expect(refused({ status: 400, headers: {} })).toBe(true);
    expect(
      refused({ status: 302, headers: { location: 'https://app.example/cb?error=access_denied' } }),
    ).toBe(true);
    expect(refused({ status: 302, headers: { location: 'https://app.example/cb?code=x' } })).toBe(false);
    expect(refused({ status: 200, headers: {} })).toBe(false);
  });

  it('lets a refusal write only the audit row of a failed sign-in and a reuse revocation', () => {
    expect(allowedRefusalWrites(refusal('POST', '/auth/login', 401), ['INSERT identity.audit_events'])).toBe(
      true,
    );
    expect(allowedRefusalWrites(refusal('POST', '/auth/login', 401), ['INSERT identity.sessions'])).toBe(
      false,
    );
    expect(allowedRefusalWrites(refusal('POST', '/auth/login', 400), ['INSERT identity.audit_events'])).toBe(
      false,
    );
    const reuse = refusal('POST', '/oauth/token', 400, '{"error":"invalid_grant"}');
    expect(allowedRefusalWrites(reuse, ['UPDATE oauth.refresh_token_families'])).toBe(true);
    expect(allowedRefusalWrites(reuse, ['INSERT oauth.refresh_tokens'])).toBe(false);
    expect(allowedRefusalWrites(refusal('POST', '/api/clients', 400), ['INSERT clients.clients'])).toBe(
      false,
    );
    expect(allowedRefusalWrites(refusal('GET', '/', 404), [])).toBe(true);
  });
});
