import {
  ConflictError,
  InvalidCredentialsError,
  RateLimitedError,
  ValidationError,
} from '@authz/shared/errors';
import { html } from '../../html/html.js';
import type { PageRequest } from '../shared/page-request.js';
import { csrfRefusal, documentPage, type PageResult } from '../shared/page-result.js';
import { tooManyAttemptsPage } from '../status/status-pages.js';
import type { SignedInAccount } from './recovery-port.js';
import type { RecoveryDeps } from './recovery-deps.js';
import { field, fieldMessages } from './recovery-form.js';
import { hasSessionCsrfToken, signedInAccountOf, signInFirstPage } from './signed-in-account.js';

/** GET /ui/account/email (interface.md 4.10): needs a browser session. */
export async function showAccountEmailPage(deps: RecoveryDeps, request: PageRequest): Promise<PageResult> {
  const account = await signedInAccountOf(deps, request);
  if (!account) return signInFirstPage(deps, 'account-email');
  return emailForm(deps, account, 200, {});
}

/**
 * POST /ui/account/email: the session's CSRF token and the password; the new address gets a
 * confirmation link and nothing changes until it is confirmed at /ui/verify-email.
 */
export async function submitAccountEmail(deps: RecoveryDeps, request: PageRequest): Promise<PageResult> {
  const account = await signedInAccountOf(deps, request);
  if (!account) return signInFirstPage(deps, 'account-email');
  if (!hasSessionCsrfToken(account, request)) return csrfRefusal();
  const newEmail = request.form.get('new_email') ?? '';
  try {
    await deps.recovery.requestEmailChange(
      account,
      newEmail,
      request.form.get('password') ?? '',
      request.origin,
    );
  } catch (error) {
    if (error instanceof InvalidCredentialsError) {
      return emailForm(deps, account, 401, { newEmail, password: 'is not correct' });
    }
    if (error instanceof ConflictError) {
      return emailForm(deps, account, 409, { newEmail, email: 'cannot be used for your account' });
    }
    if (error instanceof ValidationError) {
      const messages = fieldMessages(error);
      return emailForm(deps, account, 400, {
        newEmail,
        email: messages.get('newEmail'),
        password: messages.get('password'),
      });
    }
    if (error instanceof RateLimitedError) return tooManyAttemptsPage(deps);
    throw error;
  }
  return documentPage(deps.links, 202, {
    title: 'Check your new mailbox',
    content: html`<p>
      We sent a confirmation link to <strong>${newEmail.trim()}</strong>. Your address changes once you open
      it and confirm.
    </p>`,
  });
}

function emailForm(
  deps: RecoveryDeps,
  account: SignedInAccount,
  status: number,
  view: { newEmail?: string; email?: string | undefined; password?: string | undefined },
): PageResult {
  return documentPage(deps.links, status, {
    title: 'Change your email address',
    content: html`<p>Your address now: <strong>${account.email}</strong>.</p>
      <form method="post" action="${deps.recoveryLinks.accountEmail()}">
        <input type="hidden" name="csrf_token" value="${account.csrfToken}" />
        ${field({
          id: 'new_email',
          label: 'New email address',
          type: 'email',
          autocomplete: 'email',
          value: view.newEmail ?? '',
          problem: view.email,
        })}
        ${field({
          id: 'password',
          label: 'Current password',
          type: 'password',
          autocomplete: 'current-password',
          problem: view.password,
        })}
        <div class="actions">
          <button type="submit" class="primary">Send a confirmation link</button>
        </div>
      </form>`,
  });
}
