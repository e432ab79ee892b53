import { constantTimeEqual } from '@authz/shared/crypto';
import { NotFoundError } from '@authz/shared/errors';
import { WALLET_LINK_SIGN_IN_MAX_AGE_SECONDS } from '@authz/shared/protocol';
import { clearedFederationCookie, FEDERATION_COOKIE, federationCookie } from '../../cookies/set-cookie.js';
import { html } from '../../html/html.js';
import type { Registry } from '../../registry.js';
import { findBrowserSession } from '../browser-session.js';
import { isHandleShaped } from '../shared/handle.js';
import type { PageRequest } from '../shared/page-request.js';
import { csrfRefusal, documentPage, redirectPage, signedIn, type PageResult } from '../shared/page-result.js';
import { expiredRequestPage, notFoundPage, signInRequiredPage } from '../status/status-pages.js';
import type { CompletedUpstreamFlow, StartedUpstreamFlow } from './federation-port.js';
import {
  federationConflictPage,
  federationRefusalPage,
  federationSignInAgainPage,
} from './federation-status-pages.js';

type Deps = Pick<Registry, 'identity' | 'links' | 'accountLinks' | 'federation'>;

const flowCookie = ({ binder, expiresAt }: StartedUpstreamFlow) =>
  federationCookie(binder, Math.max(1, Math.floor((expiresAt - Date.now()) / 1000)));

/**
 * GET /ui/federation/{id}/start (interface.md 4.14): starts a sign-in at the upstream, for the
 * pending authorization `handle` when given, and sends the browser there with the flow cookie.
 */
export async function startUpstreamSignIn(
  deps: Deps,
  request: PageRequest,
  providerId: string | undefined,
): Promise<PageResult> {
  if (providerId === undefined) return notFoundPage(deps);
  const handle = request.query.get('handle') || undefined;
  if (handle !== undefined && !isHandleShaped(handle)) return expiredRequestPage(deps);
  let flow: StartedUpstreamFlow;
  try {
    flow = await deps.federation.start({ providerId, ...(handle ? { pendingHandle: handle } : {}) });
  } catch (error) {
    if (error instanceof NotFoundError) return notFoundPage(deps);
    throw error;
  }
  return redirectPage(302, flow.authorizationUrl, [flowCookie(flow)]);
}

/**
 * POST /ui/federation/{id}/start (interface.md 4.14): a signed-in user links an upstream
 * identity; session and CSRF token first (docs/decisions.md #17, #19). The answer is a page
 * with a link to the upstream rather than a redirect: CSP form-action would stop a form's
 * redirect to another origin, and the user sees which provider they are about to link.
 */
export async function startUpstreamLink(
  deps: Deps,
  request: PageRequest,
  providerId: string | undefined,
): Promise<PageResult> {
  if (providerId === undefined) return notFoundPage(deps);
  const session = await findBrowserSession(deps, request.cookies);
  if (!session) return signInRequiredPage(deps);
  const sent = request.form.get('csrf_token');
  if (sent === undefined || !constantTimeEqual(sent, session.csrfToken)) return csrfRefusal();
  const provider = (await deps.federation.listProviders()).find(({ id }) => id === providerId);
  if (!provider) return notFoundPage(deps);
  // A browser left signed in must not add a permanent way into the account (docs/federation.md #12).
  if (session.authTime * 1000 < Date.now() - WALLET_LINK_SIGN_IN_MAX_AGE_SECONDS * 1000) {
    return federationSignInAgainPage(deps);
  }
  const flow = await deps.federation.start({ providerId, linkUserId: session.userId });
  return documentPage(
    deps.links,
    200,
    {
      title: `Link ${provider.displayName}`,
      content: html`<p>Sign in at ${provider.displayName} to link it to your account (${session.email}).</p>
        <p><a class="primary" href="${flow.authorizationUrl}">Continue to ${provider.displayName}</a></p>
        <p><a href="${deps.accountLinks.account()}">Cancel</a></p>`,
    },
    [flowCookie(flow)],
  );
}

/**
 * GET /ui/federation/callback (interface.md 4.14): identity checks the upstream's answer for
 * the flow this browser's cookie names. A sign-in goes on to the pending authorization (or the
 * signed-in page); a link back to the account page; anything else is the one refusal page.
 */
export async function finishUpstreamFlow(deps: Deps, request: PageRequest): Promise<PageResult> {
  const cleared = [clearedFederationCookie()];
  let completed: CompletedUpstreamFlow;
  try {
    completed = await deps.federation.complete({
      binder: request.cookies[FEDERATION_COOKIE] ?? '',
      callbackQuery: request.query.encoded(),
      origin: request.origin,
    });
  } catch (error) {
    if (error instanceof NotFoundError) return federationRefusalPage(deps, cleared);
    throw error;
  }
  if (completed.outcome === 'conflict') return federationConflictPage(deps, cleared);
  if (completed.outcome === 'linked')
    return redirectPage(302, deps.accountLinks.account('upstream-linked'), cleared);
  const next = completed.pendingHandle ? deps.links.resume(completed.pendingHandle) : deps.links.login();
  // The gateway sets the session cookie from the outcome (docs/hosted-pages.md #2).
  return signedIn(redirectPage(302, next, cleared), completed.sessionToken);
}
