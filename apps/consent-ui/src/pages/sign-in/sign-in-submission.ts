import { isLoginCsrfTokenValid, isPreSessionShaped } from '../../cookies/login-csrf.js';
import { LOGIN_COOKIE } from '../../cookies/set-cookie.js';
import type { Registry } from '../../registry.js';
import { isHandleShaped } from '../shared/handle.js';
import type { PageRequest } from '../shared/page-request.js';
import { csrfRefusal, type PageResult } from '../shared/page-result.js';
import { expiredRequestPage } from '../status/status-pages.js';
import { nextPageOf, type NextPage } from './after-sign-in.js';

/** A sign-in form's POST that passed the checks: where the browser goes on afterwards. */
export interface SignInSubmission {
  preSession: string;
  /** The pending authorization, absent for a sign-in to the account page. */
  handle: string | undefined;
  /** Without a pending authorization: the page to go to once signed in. */
  next: NextPage | undefined;
}

/**
 * What every sign-in POST (password, second step, passkey) checks before anything else: the
 * CSRF token fits this browser's pre-session cookie and the form's pending authorization
 * (docs/decisions.md #17), then the handle has the shape of one. Either the submission, or the
 * page that answers it: 400 invalid_csrf_token for the CSRF token, the expired-request page for the handle.
 */
export function checkSignInSubmission(
  deps: Pick<Registry, 'loginCsrfKey' | 'links'>,
  request: PageRequest,
): SignInSubmission | { refused: PageResult } {
  const preSession = request.cookies[LOGIN_COOKIE];
  const handle = request.form.get('handle') || undefined;
  if (
    !isPreSessionShaped(preSession) ||
    !isLoginCsrfTokenValid(deps.loginCsrfKey, preSession, handle, request.form.get('csrf_token'))
  ) {
    return { refused: csrfRefusal() };
  }
  if (handle !== undefined && !isHandleShaped(handle)) return { refused: expiredRequestPage(deps) };
  const next = handle === undefined ? nextPageOf(request.form.get('next')) : undefined;
  return { preSession, handle, next };
}
