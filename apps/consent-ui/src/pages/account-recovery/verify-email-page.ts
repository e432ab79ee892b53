import { ConflictError, InvalidTokenError, ValidationError } from '@authz/shared/errors';
import { html } from '../../html/html.js';
import type { PageRequest } from '../shared/page-request.js';
import { csrfRefusal, documentPage, type PageResult } from '../shared/page-result.js';
import { linkTokenOf } from './link-token.js';
import type { RecoveryDeps } from './recovery-deps.js';
import { isPreSessionFormValid, preSessionForm } from './recovery-form.js';

/**
 * GET /ui/verify-email?token= (interface.md 4.10, docs/security.md #12 finding 10): a
 * Confirm button and nothing else; link scanners that fetch it verify nothing. The same page
 * confirms a sign-up address and a new address of an email change.
 */
export async function showVerifyEmailPage(deps: RecoveryDeps, request: PageRequest): Promise<PageResult> {
  const token = linkTokenOf(request.query.get('token'));
  if (token === undefined) return invalidLinkPage(deps);
  const { csrfToken, setCookies } = preSessionForm(deps.loginCsrfKey, 'verify-email', request, token);
  return documentPage(
    deps.links,
    200,
    {
      title: 'Confirm your email address',
      content: html`<p>Confirm that this email address is yours.</p>
        <form method="post" action="${deps.recoveryLinks.verifyEmail()}">
          <input type="hidden" name="csrf_token" value="${csrfToken}" />
          <input type="hidden" name="token" value="${token}" />
          <div class="actions">
            <button type="submit" class="primary">Confirm</button>
          </div>
        </form>`,
    },
    setCookies,
  );
}

/** POST /ui/verify-email: uses the token (single use). */
export async function submitVerifyEmail(deps: RecoveryDeps, request: PageRequest): Promise<PageResult> {
  const token = linkTokenOf(request.form.get('token'));
  if (!isPreSessionFormValid(deps.loginCsrfKey, 'verify-email', request, token)) return csrfRefusal();
  if (token === undefined) return invalidLinkPage(deps);
  let email: string;
  try {
    email = await deps.recovery.verifyEmail(token, request.origin);
  } catch (error) {
    if (error instanceof InvalidTokenError || error instanceof ValidationError) return invalidLinkPage(deps);
    if (error instanceof ConflictError) {
      return documentPage(deps.links, 409, {
        title: 'Address not changed',
        heading: 'The email address could not be changed',
        content: html`<p>
          This address cannot be used for your account. Your account keeps its current address.
        </p>`,
      });
    }
    throw error;
  }
  return documentPage(deps.links, 200, {
    title: 'Email address confirmed',
    content: html`<p><strong>${email}</strong> is confirmed as the address of your account.</p>
      <p><a href="${deps.links.login()}">Sign in</a></p>`,
  });
}

function invalidLinkPage(deps: RecoveryDeps): PageResult {
  return documentPage(deps.links, 400, {
    title: 'Link expired',
    heading: 'This link is invalid or has expired',
    content: html`<p>Confirmation links work once, for a limited time.</p>`,
  });
}
