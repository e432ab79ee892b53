import { NotFoundError, UnauthorizedError } from '@authz/shared/errors';
import { html } from '../../html/html.js';
import { documentPage, type PageResult } from '../shared/page-result.js';
import type { Registry } from '../../registry.js';

// Pages that only say why the browser cannot go on. None names a client or echoes a request
// value, and none links back to a client: its redirect URI is not known to be safe here.

type Deps = Pick<Registry, 'links'>;

const START_AGAIN = html`<p>Go back to the application you came from and start again.</p>`;

/** interface.md 2.6, 3: a pending authorization or consent handle is single use and lives 10 minutes. */
export function expiredRequestPage({ links }: Deps): PageResult {
  return documentPage(links, 400, {
    title: 'Request expired',
    heading: 'This sign-in request has expired or was already used',
    content: START_AGAIN,
  });
}

/** interface.md 4.5, 5: the page needs a browser session and there is none (or it ended). */
/** 401 with a way to sign in; `next` names the page of ours the sign-in returns to (login-page.ts). */
export function signInRequiredPage({ links }: Deps, next?: 'wallet-link'): PageResult {
  const signIn = next === undefined ? links.login() : `${links.login()}?next=${next}`;
  return documentPage(links, 401, {
    title: 'Sign in required',
    heading: 'You are not signed in',
    content: html`<p>This page needs you to be signed in, and your session has ended or was never started.</p>
      ${
        next === undefined
          ? html`<p>
              <a href="${signIn}">Sign in</a>, then go back to the application you came from and start again.
            </p>`
          : html`<p><a href="${signIn}">Sign in</a> and you will be brought back here.</p>`
      }`,
  });
}

/**
 * docs/wallet.md #19: linking a wallet needs a sign-in within the last 5 minutes; the session is
 * live but older, so the user signs in again and comes back here.
 */
export function signInAgainPage({ links }: Deps, next: 'wallet-link'): PageResult {
  return documentPage(links, 401, {
    title: 'Sign in again',
    content: html`<p>Linking a wallet needs a recent sign-in. Sign in with your password again to go on.</p>
      <p><a href="${links.login()}?next=${next}">Sign in</a> and you will be brought back here.</p>`,
  });
}

export function badRequestPage({ links }: Deps): PageResult {
  return documentPage(links, 400, { title: 'This request is not valid', content: START_AGAIN });
}

export function notFoundPage({ links }: Deps): PageResult {
  return documentPage(links, 404, {
    title: 'Page not found',
    content: html`<p>There is no page at this address.</p>`,
  });
}

/**
 * RFC 9110 section 15.5.6. The methods the path allows are named in the page; the Allow header
 * itself is the gateway's (docs/hosted-pages.md #10).
 */
export function methodNotAllowedPage({ links }: Deps, allowed: readonly string[]): PageResult {
  return documentPage(links, 405, {
    title: 'Method not allowed',
    content: html`<p>This page accepts only ${allowed.join(' and ')} requests.</p>`,
  });
}

export function tooManyAttemptsPage({ links }: Deps): PageResult {
  return documentPage(links, 429, {
    title: 'Too many attempts',
    content: html`<p>Wait a few minutes, then try again.</p>`,
  });
}

/** Nothing about the failure itself reaches the browser; it is logged. */
export function serverErrorPage({ links }: Deps): PageResult {
  return documentPage(links, 500, {
    title: 'Something went wrong',
    content: html`<p>The request could not be completed. Try again in a moment.</p>`,
  });
}

/**
 * The refusals every authorization step may answer (AuthorizationService comments): an unknown,
 * used or expired handle, or a session that no longer signs anyone in. Anything else is rethrown.
 */
export function refusalPage(deps: Deps, error: unknown): PageResult {
  if (error instanceof NotFoundError) return expiredRequestPage(deps);
  if (error instanceof UnauthorizedError) return signInRequiredPage(deps);
  throw error;
}
