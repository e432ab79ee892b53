import { InvalidCodeError, InvalidTokenError, RateLimitedError, ValidationError } from '@authz/shared/errors';
import { loginCsrfToken } from '../../cookies/login-csrf.js';
import { clearedLoginCookie } from '../../cookies/set-cookie.js';
import { html } from '../../html/html.js';
import type { PageRequest } from '../shared/page-request.js';
import { signInFormFields } from '../shared/sign-in-form-fields.js';
import {
  documentPage,
  redirectPage,
  signedIn,
  signInFailed,
  type PageResult,
} from '../shared/page-result.js';
import type { Registry } from '../../registry.js';
import { afterSignIn, type NextPage } from '../sign-in/after-sign-in.js';
import { tooManyAttemptsPage } from '../status/status-pages.js';
import { codeField, WRONG_CODE } from './code-field.js';
import { checkSignInSubmission } from '../sign-in/sign-in-submission.js';

type Deps = Pick<
  Registry,
  | 'links'
  | 'loginCsrfKey'
  | 'secondFactors'
  | 'strongAuthLinks'
  | 'walletLinks'
  | 'recoveryLinks'
  | 'accountLinks'
>;

export interface SecondStepView {
  handle: string | undefined;
  next: NextPage | undefined;
  preSession: string;
  mfaToken: string;
  error?: string;
}

/**
 * The second step of a hosted sign-in (docs/strong-authentication.md #6): the password was right
 * and the account has an authenticator app. The form carries the mfa_token and the sign-in
 * form's CSRF token (bound to the pre-session cookie and the pending authorization), and
 * posts to POST /ui/login/mfa. No session exists until the code is accepted.
 */
export function secondStepPage(deps: Deps, status: number, view: SecondStepView): PageResult {
  const { handle, next } = view;
  const csrfToken = loginCsrfToken(deps.loginCsrfKey, view.preSession, handle);
  return documentPage(deps.links, status, {
    title: 'Two-step verification',
    heading: 'Enter your verification code',
    content: html`<p>Open your authenticator app and enter the 6-digit code it shows for this account.</p>
      <form method="post" action="${deps.strongAuthLinks.secondStep()}">
        ${signInFormFields({ handle, next, csrfToken })}
        <input type="hidden" name="mfa_token" value="${view.mfaToken}" />
        ${codeField(view.error)}
        <div class="actions"><button type="submit" class="primary">Verify</button></div>
      </form>
      <p><a href="${deps.links.login(handle)}">Start over</a></p>`,
  });
}

/**
 * POST /ui/login/mfa: the sign-in form's CSRF check first (docs/decisions.md #17), then identity
 * takes the code. A wrong code shows the form again (401); an expired or used mfa_token sends
 * the browser back to sign in; success opens the session like any sign-in.
 */
export async function submitSecondStep(deps: Deps, request: PageRequest): Promise<PageResult> {
  const submission = checkSignInSubmission(deps, request);
  if ('refused' in submission) return submission.refused;
  const { preSession, handle, next } = submission;
  const mfaToken = request.form.get('mfa_token') ?? '';
  let sessionToken: string;
  try {
    sessionToken = await deps.secondFactors.completeSignIn({
      mfaToken,
      code: request.form.get('code') ?? '',
      origin: request.origin,
    });
  } catch (error) {
    if (error instanceof RateLimitedError) return signInFailed(tooManyAttemptsPage(deps), 'rate_limited');
    if (error instanceof InvalidTokenError) return redirectPage(303, deps.links.login(handle));
    if (error instanceof InvalidCodeError || error instanceof ValidationError) {
      const page = secondStepPage(deps, 401, { handle, next, preSession, mfaToken, error: WRONG_CODE });
      return signInFailed(page, 'invalid_credentials');
    }
    throw error;
  }
  return signedIn(redirectPage(303, afterSignIn(deps, handle, next), [clearedLoginCookie()]), sessionToken);
}
