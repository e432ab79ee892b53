import { RateLimitedError, ValidationError } from '@authz/shared/errors';
import { html } from '../../html/html.js';
import type { PageRequest } from '../shared/page-request.js';
import { csrfRefusal, documentPage, type PageResult } from '../shared/page-result.js';
import { tooManyAttemptsPage } from '../status/status-pages.js';
import type { RecoveryDeps } from './recovery-deps.js';
import { field, fieldMessages, isPreSessionFormValid, preSessionForm } from './recovery-form.js';

/** GET /ui/forgot-password (interface.md 4.10): one address field. */
export async function showForgotPasswordPage(deps: RecoveryDeps, request: PageRequest): Promise<PageResult> {
  return forgotPasswordForm(deps, request, 200);
}

/**
 * POST /ui/forgot-password: the same "check your mailbox" page for every valid address, known
 * or not (docs/hosted-pages.md #25); identity sends a mail only to an account's address.
 */
export async function submitForgotPassword(deps: RecoveryDeps, request: PageRequest): Promise<PageResult> {
  if (!isPreSessionFormValid(deps.loginCsrfKey, 'forgot-password', request, undefined)) return csrfRefusal();
  const email = request.form.get('email') ?? '';
  try {
    await deps.recovery.requestPasswordReset(email, request.origin);
  } catch (error) {
    if (error instanceof ValidationError) {
      return forgotPasswordForm(deps, request, 400, { email, problem: fieldMessages(error).get('email') });
    }
    if (error instanceof RateLimitedError) return tooManyAttemptsPage(deps);
    throw error;
  }
  return documentPage(deps.links, 200, {
    title: 'Check your email',
    content: html`<p>
        If an account uses this address, a message with a link to choose a new password is on its way. The
        link works once, for one hour.
      </p>
      <p><a href="${deps.links.login()}">Back to sign in</a></p>`,
  });
}

function forgotPasswordForm(
  deps: RecoveryDeps,
  request: PageRequest,
  status: number,
  { email = '', problem }: { email?: string; problem?: string | undefined } = {},
): PageResult {
  const { csrfToken, setCookies } = preSessionForm(deps.loginCsrfKey, 'forgot-password', request, undefined);
  return documentPage(
    deps.links,
    status,
    {
      title: 'Forgot your password?',
      content: html`<p>
          Enter the email address of your account and we will send you a link to choose a new password.
        </p>
        <form method="post" action="${deps.recoveryLinks.forgotPassword()}">
          <input type="hidden" name="csrf_token" value="${csrfToken}" />
          ${field({ id: 'email', label: 'Email', type: 'email', autocomplete: 'username', value: email, problem })}
          <div class="actions">
            <button type="submit" class="primary">Send the link</button>
          </div>
        </form>
        <p><a href="${deps.links.login()}">Back to sign in</a></p>`,
    },
    setCookies,
  );
}
