import { constantTimeEqual } from '@authz/shared/crypto';
import { html } from '../../html/html.js';
import type { LogoutPrompt } from '../authorization/authorization-port.js';
import { outcomePage } from '../authorization/error-page.js';
import { findBrowserSession, type BrowserSession } from '../browser-session.js';
import { isHandleShaped } from '../shared/handle.js';
import type { PageRequest } from '../shared/page-request.js';
import { csrfRefusal, documentPage, signedOut, type PageResult } from '../shared/page-result.js';
import { expiredRequestPage, refusalPage } from '../status/status-pages.js';
import type { Registry } from '../../registry.js';
import { signedOutPage } from './signed-out-page.js';

type Deps = Pick<Registry, 'identity' | 'authorization' | 'links'>;

/**
 * GET /ui/logout?handle= (interface.md 4.3, OIDC RP-Initiated Logout 1.0 section 2: without a
 * valid id_token_hint the user confirms). A form with the session's CSRF token
 * (docs/decisions.md #17) and one button; nothing changes until it is pressed. A browser whose
 * session already ended is simply told it is signed out.
 */
export async function showLogoutPage(deps: Deps, request: PageRequest): Promise<PageResult> {
  const session = await findBrowserSession(deps, request.cookies);
  if (!session) return signedOutPage(deps);
  const handle = request.query.get('handle');
  if (!isHandleShaped(handle)) return expiredRequestPage(deps);
  let prompt: LogoutPrompt;
  try {
    prompt = await deps.authorization.getLogoutPrompt({ handle, sessionToken: session.token });
  } catch (error) {
    return refusalPage(deps, error);
  }
  return confirmationPage(deps, { handle, session, prompt });
}

/**
 * POST /ui/logout: a signed-in browser and its CSRF token compared in constant time
 * (docs/decisions.md #17, #19); oauth ends the session and says where the browser goes.
 */
export async function submitLogout(deps: Deps, request: PageRequest): Promise<PageResult> {
  const session = await findBrowserSession(deps, request.cookies);
  if (!session) return signedOutPage(deps);
  const sent = request.form.get('csrf_token');
  if (sent === undefined || !constantTimeEqual(sent, session.csrfToken)) return csrfRefusal();
  const handle = request.form.get('handle');
  if (!isHandleShaped(handle)) return expiredRequestPage(deps);
  try {
    const outcome = await deps.authorization.confirmLogout({
      handle,
      sessionToken: session.token,
      origin: request.origin,
    });
    const page = outcomePage(deps, outcome, 303);
    return outcome.clearSessionCookie ? signedOut(page) : page;
  } catch (error) {
    return refusalPage(deps, error);
  }
}

interface ConfirmationView {
  handle: string;
  session: BrowserSession;
  prompt: LogoutPrompt;
}

function confirmationPage({ links }: Pick<Registry, 'links'>, { handle, session, prompt }: ConfirmationView) {
  const page = documentPage(links, 200, {
    title: 'Sign out?',
    heading: 'Sign out?',
    content: html`<p class="muted">Signed in as <strong>${session.email}</strong></p>
      ${
        prompt.clientName === ''
          ? html`<p>An application asked to sign you out of this account on this browser.</p>`
          : html`<p>${prompt.clientName} asked to sign you out of this account on this browser.</p>`
      }
      <form method="post" action="${links.logout()}">
        <input type="hidden" name="handle" value="${handle}" />
        <input type="hidden" name="csrf_token" value="${session.csrfToken}" />
        <div class="actions">
          <button type="submit" class="primary">Sign out</button>
        </div>
      </form>`,
  });
  // The confirmation is redirected on to the registered post-logout URI (CSP form-action).
  return prompt.redirectOrigin === '' ? page : { ...page, formActionOrigins: [prompt.redirectOrigin] };
}
