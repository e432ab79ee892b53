import { InvalidTokenError, RateLimitedError, ValidationError } from '@authz/shared/errors';
import { html } from '../../html/html.js';
import type { PageRequest } from '../shared/page-request.js';
import { csrfRefusal, documentPage, type PageResult } from '../shared/page-result.js';
import { tooManyAttemptsPage } from '../status/status-pages.js';
import { linkTokenOf } from './link-token.js';
import type { RecoveryDeps } from './recovery-deps.js';
import { field, fieldMessages, isPreSessionFormValid, preSessionForm } from './recovery-form.js';

/**
 * GET /ui/reset-password?token= (interface.md 4.10): the form, and nothing else. The token
 * is not even looked up, so a prefetched link changes and reveals nothing (docs/hosted-pages.md #25).
 */
export async function showResetPasswordPage(deps: RecoveryDeps, request: PageRequest): Promise<PageResult> {
  const token = linkTokenOf(request.query.get('token'));
  if (token === undefined) return invalidLinkPage(deps);
  return resetPasswordForm(deps, request, token, 200);
}

/** POST /ui/reset-password: the new password, then every session and token of the account ends. */
export async function submitResetPassword(deps: RecoveryDeps, request: PageRequest): Promise<PageResult> {
  const token = linkTokenOf(request.form.get('token'));
  if (!isPreSessionFormValid(deps.loginCsrfKey, 'reset-password', request, token)) return csrfRefusal();
  if (token === undefined) return invalidLinkPage(deps);
  try {
    await deps.recovery.resetPassword(token, request.form.get('password') ?? '', request.origin);
  } catch (error) {
    if (error instanceof InvalidTokenError) return invalidLinkPage(deps);
    if (error instanceof ValidationError) {
      return resetPasswordForm(
        deps,
        request,
        token,
        400,
        fieldMessages(error).get('password') ?? 'is not valid',
      );
    }
    if (error instanceof RateLimitedError) return tooManyAttemptsPage(deps);
    throw error;
  }
  return documentPage(deps.links, 200, {
    title: 'Password reset',
    heading: 'Your password was reset',
    content: html`<p>Every device that was signed in to your account has been signed out.</p>
      <p><a href="${deps.links.login()}">Sign in with the new password</a></p>`,
  });
}

function resetPasswordForm(
  deps: RecoveryDeps,
  request: PageRequest,
  token: string,
  status: number,
  problem?: string,
): PageResult {
  const { csrfToken, setCookies } = preSessionForm(deps.loginCsrfKey, 'reset-password', request, token);
  return documentPage(
    deps.links,
    status,
    {
      title: 'Choose a new password',
      content: html`<form method="post" action="${deps.recoveryLinks.resetPassword()}">
        <input type="hidden" name="csrf_token" value="${csrfToken}" />
        <input type="hidden" name="token" value="${token}" />
        ${field({ id: 'password', label: 'New password', type: 'password', autocomplete: 'new-password', problem })}
        <p class="muted">8 to 128 characters; not a common password.</p>
        <div class="actions">
          <button type="submit" class="primary">Set the new password</button>
        </div>
      </form>`,
    },
    setCookies,
  );
}

function invalidLinkPage(deps: RecoveryDeps): PageResult {
  return documentPage(deps.links, 400, {
    title: 'Link expired',
    heading: 'This link is invalid or has expired',
    content: html`<p>Reset links work once, for a limited time, and a newer one replaces older ones.</p>
      <p><a href="${deps.recoveryLinks.forgotPassword()}">Ask for a new link</a></p>`,
  });
}
