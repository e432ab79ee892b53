import { create, type MessageInitShape } from '@bufbuild/protobuf';
import {
  RenderPageResponseSchema,
  SignInFailure,
  type PageSchema,
} from '@authz/proto/consentui/v1/consentui';
import { InternalError } from '@authz/shared/errors';
import { describe, expect, it } from 'vitest';
import { loginAttemptOutcome, pageOf } from './page-outcome.js';

// What the gateway makes of consent-ui's typed RenderPage outcomes (docs/hosted-pages.md #1, #2,
// docs/gateway-routes.md #3).
const TOKEN = 'ab'.repeat(32);
const CLEARED_LOGIN = '__Host-service_login=; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=0';

function page(init: MessageInitShape<typeof PageSchema> = {}): MessageInitShape<typeof PageSchema> {
  return { status: 200, contentType: 'text/html; charset=utf-8', body: '<!doctype html>', ...init };
}

function response(outcome: MessageInitShape<typeof RenderPageResponseSchema>['outcome']) {
  return create(RenderPageResponseSchema, { outcome });
}

const redirect = page({ status: 303, body: '', location: '/ui/resume/abc', setCookies: [CLEARED_LOGIN] });

describe('pageOf', () => {
  it('passes a plain page through as consent-ui rendered it', () => {
    const answered = pageOf(response({ case: 'page', value: page({ setCookies: ['a=b'] }) }));
    expect(answered).toMatchObject({ status: 200, setCookies: ['a=b'], body: '<!doctype html>' });
  });

  it('sets the session cookie of a sign-in itself, before the page’s own cookies', () => {
    const answered = pageOf(response({ case: 'signedIn', value: { sessionToken: TOKEN, page: redirect } }));
    expect(answered.status).toBe(303);
    expect(answered.location).toBe('/ui/resume/abc');
    expect(answered.setCookies).toEqual([
      `__Host-service_session=${TOKEN}; Path=/; Secure; HttpOnly; SameSite=Lax`,
      CLEARED_LOGIN,
    ]);
  });

  it('gives the session cookie a Max-Age only when the outcome names a lifetime', () => {
    const answered = pageOf(
      response({
        case: 'signedIn',
        value: { sessionToken: TOKEN, cookieMaxAgeSeconds: 3600n, page: redirect },
      }),
    );
    expect(answered.setCookies[0]).toBe(
      `__Host-service_session=${TOKEN}; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=3600`,
    );
  });

  it('answers a refused sign-in with its page', () => {
    const form = page({ status: 401 });
    const answered = pageOf(
      response({ case: 'signInFailed', value: { reason: SignInFailure.INVALID_CREDENTIALS, page: form } }),
    );
    expect(answered).toMatchObject({ status: 401, setCookies: [] });
  });

  it('refuses an answer without an outcome, or a session token that is no cookie value', () => {
    expect(() => pageOf(response(undefined))).toThrow(InternalError);
    expect(() => pageOf(response({ case: 'signedIn', value: { sessionToken: TOKEN } }))).toThrow(
      InternalError,
    );
    expect(() =>
      pageOf(
        response({ case: 'signedIn', value: { sessionToken: 'x; Domain=evil.example', page: redirect } }),
      ),
    ).toThrow(InternalError);
  });
});

describe('loginAttemptOutcome', () => {
  it.each([
    ['success', { case: 'signedIn', value: { sessionToken: TOKEN, page: redirect } }],
    ['failure', { case: 'signInFailed', value: { reason: SignInFailure.INVALID_CREDENTIALS, page: page() } }],
    ['rate_limited', { case: 'signInFailed', value: { reason: SignInFailure.RATE_LIMITED, page: page() } }],
    ['rate_limited', { case: 'page', value: page({ status: 429 }) }],
    ['error', { case: 'page', value: page({ status: 500 }) }],
    ['invalid_request', { case: 'page', value: page({ status: 400 }) }],
    // A redirect is no sign-in unless the outcome says so, whatever cookies it sets.
    [
      'invalid_request',
      { case: 'page', value: page({ status: 303, setCookies: [`__Host-service_session=${TOKEN}`] }) },
    ],
  ] as const)('%s', (label, outcome) => {
    expect(loginAttemptOutcome(response(outcome))).toBe(label);
  });
});
