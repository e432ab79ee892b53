import { InvalidCredentialsError, RateLimitedError, ValidationError } from '@authz/shared/errors';
import { html } from '../../html/html.js';
import type { PageRequest } from '../shared/page-request.js';
import { csrfRefusal, documentPage, type PageResult } from '../shared/page-result.js';
import { tooManyAttemptsPage } from '../status/status-pages.js';
import type { SignedInAccount } from './recovery-port.js';
import type { RecoveryDeps } from './recovery-deps.js';
import { field, fieldMessages } from './recovery-form.js';
import { hasSessionCsrfToken, signedInAccountOf, signInFirstPage } from './signed-in-account.js';

/** GET /ui/account/password (interface.md 4.10): needs a browser session. */
export async function showAccountPasswordPage(deps: RecoveryDeps, request: PageRequest): Promise<PageResult> {
  const account = await signedInAccountOf(deps, request);
  if (!account) return signInFirstPage(deps, 'account-password');
  return passwordForm(deps, account, 200, {});
}

/**
 * POST /ui/account/password: the session's CSRF token, the current password, the new one; every
 * other session and its tokens end, this browser stays signed in (docs/tokens.md #31).
 */
export async function submitAccountPassword(deps: RecoveryDeps, request: PageRequest): Promise<PageResult> {
  const account = await signedInAccountOf(deps, request);
  if (!account) return signInFirstPage(deps, 'account-password');
  if (!hasSessionCsrfToken(account, request)) return csrfRefusal();
  try {
    await deps.recovery.changePassword(
      account,
      request.form.get('current_password') ?? '',
      request.form.get('new_password') ?? '',
      request.origin,
    );
  } catch (error) {
    if (error instanceof InvalidCredentialsError) {
      return passwordForm(deps, account, 401, { current: 'is not correct' });
    }
    if (error instanceof ValidationError) {
      const messages = fieldMessages(error);
      return passwordForm(deps, account, 400, {
        current: messages.get('currentPassword'),
        next: messages.get('newPassword'),
      });
    }
    if (error instanceof RateLimitedError) return tooManyAttemptsPage(deps);
    throw error;
  }
  return documentPage(deps.links, 200, {
    title: 'Password changed',
    heading: 'Your password was changed',
    content: html`<p>
      Other devices signed in to your account have been signed out; this one stays signed in.
    </p>`,
  });
}

function passwordForm(
  deps: RecoveryDeps,
  account: SignedInAccount,
  status: number,
  problems: { current?: string | undefined; next?: string | undefined },
): PageResult {
  return documentPage(deps.links, status, {
    title: 'Change your password',
    content: html`<p>Signed in as <strong>${account.email}</strong>.</p>
      <form method="post" action="${deps.recoveryLinks.accountPassword()}">
        <input type="hidden" name="csrf_token" value="${account.csrfToken}" />
        ${field({
          id: 'current_password',
          label: 'Current password',
          type: 'password',
          autocomplete: 'current-password',
          problem: problems.current,
        })}
        ${field({
          id: 'new_password',
          label: 'New password',
          type: 'password',
          autocomplete: 'new-password',
          problem: problems.next,
        })}
        <p class="muted">8 to 128 characters; not a common password.</p>
        <div class="actions">
          <button type="submit" class="primary">Change the password</button>
        </div>
      </form>`,
  });
}
