import { constantTimeEqual } from '@authz/shared/crypto';
import { findBrowserSession, sessionTokenOf } from '@authz/shared/sessions';
import { html } from '../../html/html.js';
import type { PageRequest } from '../shared/page-request.js';
import { documentPage, type PageResult } from '../shared/page-result.js';
import type { SignedInAccount } from './recovery-port.js';
import type { RecoveryDeps } from './recovery-deps.js';

/** The account behind the browser session cookie, or undefined when none signs anybody in. */
export function signedInAccountOf(
  deps: RecoveryDeps,
  request: PageRequest,
): Promise<SignedInAccount | undefined> {
  return findBrowserSession(sessionTokenOf(request.cookies), (token) => deps.recovery.signedInAccount(token));
}

/** docs/decisions.md #17: the session's own CSRF token, compared in constant time. */
export function hasSessionCsrfToken(account: SignedInAccount, request: PageRequest): boolean {
  const sent = request.form.get('csrf_token');
  return sent !== undefined && constantTimeEqual(sent, account.csrfToken);
}

/** 401 with a sign-in link that comes back to the page (login-page.ts NEXT_PAGES). */
export function signInFirstPage(deps: RecoveryDeps, next: 'account-password' | 'account-email'): PageResult {
  return documentPage(deps.links, 401, {
    title: 'Sign in required',
    heading: 'You are not signed in',
    content: html`<p>This page needs you to be signed in.</p>
      <p><a href="${deps.recoveryLinks.signInThen(next)}">Sign in</a> and you will be brought back here.</p>`,
  });
}
