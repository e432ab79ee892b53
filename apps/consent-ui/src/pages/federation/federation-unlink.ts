import { constantTimeEqual } from '@authz/shared/crypto';
import { ConflictError, NotFoundError, ValidationError } from '@authz/shared/errors';
import { html } from '../../html/html.js';
import type { Registry } from '../../registry.js';
import { findBrowserSession } from '../browser-session.js';
import type { PageRequest } from '../shared/page-request.js';
import { csrfRefusal, documentPage, redirectPage, type PageResult } from '../shared/page-result.js';
import { signInRequiredPage } from '../status/status-pages.js';

type Deps = Pick<Registry, 'identity' | 'links' | 'accountLinks' | 'federation'>;

/**
 * POST /ui/account/federation/unlink (interface.md 4.14): form `csrf_token` (the session's) and
 * `identity_id`. Never the account's last sign-in method (docs/federation.md #9): 409.
 */
export async function submitUnlink(deps: Deps, request: PageRequest): Promise<PageResult> {
  const session = await findBrowserSession(deps, request.cookies);
  if (!session) return signInRequiredPage(deps);
  const sent = request.form.get('csrf_token');
  if (sent === undefined || !constantTimeEqual(sent, session.csrfToken)) return csrfRefusal();
  try {
    await deps.federation.unlink({
      userId: session.userId,
      identityId: request.form.get('identity_id') ?? '',
      origin: request.origin,
    });
  } catch (error) {
    if (error instanceof NotFoundError) {
      throw new ValidationError([{ path: 'identity_id', message: 'is not a linked sign-in method' }]);
    }
    if (!(error instanceof ConflictError)) throw error;
    return documentPage(deps.links, 409, {
      title: 'Not unlinked',
      heading: 'This is your only way to sign in',
      content: html`<p>Link another sign-in method first; nothing was changed.</p>
        <p><a href="${deps.accountLinks.account()}">Back to your account</a></p>`,
    });
  }
  return redirectPage(303, deps.accountLinks.account('upstream-unlinked'));
}
