import { SignInFailure, type Page, type RenderPageResponse } from '@authz/proto/consentui/v1/consentui';
import { InternalError } from '@authz/shared/errors';
import { clearedSessionCookie, sessionCookie } from '../http/cookies.js';

/**
 * The page of a RenderPage answer as the browser gets it. A sign-in's session cookie is built
 * here from the typed outcome, ahead of the page's own Set-Cookie values (docs/hosted-pages.md
 * #1, #2); every other cookie is the page's, as given.
 */
export function pageOf({ outcome }: RenderPageResponse): Page {
  switch (outcome.case) {
    case 'page':
      return outcome.value;
    case 'signInFailed':
      return requirePage(outcome.value.page);
    case 'signedIn': {
      const { sessionToken, cookieMaxAgeSeconds, page } = outcome.value;
      const answer = requirePage(page);
      const session = sessionCookie(sessionToken, cookieMaxAgeSeconds);
      return { ...answer, setCookies: [session, ...answer.setCookies] };
    }
    case 'signedOut': {
      const answer = requirePage(outcome.value.page);
      return { ...answer, setCookies: [clearedSessionCookie(), ...answer.setCookies] };
    }
    default:
      throw new InternalError({ detail: 'consent-ui answered no outcome' });
  }
}

/**
 * login_attempts_total of POST /ui/login from the typed outcome (docs/gateway-routes.md #3): a
 * sign-in is `success`; identity refusing the credentials `failure`, refusing for rate
 * `rate_limited`. A plain page never reached identity's verdict: 429 `rate_limited`, 5xx
 * `error`, anything else (CSRF refusal, expired form, missing fields) `invalid_request`.
 */
export function loginAttemptOutcome({ outcome }: RenderPageResponse): string {
  switch (outcome.case) {
    case 'signedIn':
      return 'success';
    case 'signInFailed':
      return outcome.value.reason === SignInFailure.RATE_LIMITED ? 'rate_limited' : 'failure';
    case 'page':
      if (outcome.value.status === 429) return 'rate_limited';
      // The only 200 page a sign-in answers: the password was right, the second step is due
      // (docs/strong-authentication.md #6).
      if (outcome.value.status === 200) return 'second_step';
      return outcome.value.status >= 500 ? 'error' : 'invalid_request';
    default:
      return 'error';
  }
}

function requirePage(page: Page | undefined): Page {
  if (!page) throw new InternalError({ detail: 'consent-ui answered an outcome without a page' });
  return page;
}
