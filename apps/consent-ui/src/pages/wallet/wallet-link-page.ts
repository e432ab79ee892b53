import { InvalidCsrfTokenError, NotFoundError, UnauthorizedError } from '@authz/shared/errors';
import { SESSION_COOKIE } from '@authz/shared/protocol';
import { html } from '../../html/html.js';
import { findBrowserSession } from '../browser-session.js';
import type { PageRequest } from '../shared/page-request.js';
import { csrfRefusal, documentPage, type PageResult } from '../shared/page-result.js';
import type { Registry } from '../../registry.js';
import { notFoundPage, signInRequiredPage } from '../status/status-pages.js';
import { BINDER_COOKIE, invocationUriFor, walletFlowCookies } from './wallet-cookies.js';
import type { LinkOutcome, LinkStatus } from './wallet-port.js';
import { walletRefusalPage } from './wallet-status-pages.js';
import { walletWaitingPage } from './wallet-waiting-page.js';

type Deps = Pick<Registry, 'wallet' | 'walletLinks' | 'qrCodes' | 'identity' | 'links'>;

const LINK_PURPOSE = 'Your wallet is asked to present a credential to link to your account.';

/** interface.md 3, in plain words; wallet-bridge's own sentence is shown when it sends one. */
const OUTCOME_VIEWS: Record<Exclude<LinkStatus, 'pending'>, { title: string; fallback: string }> = {
  linked: { title: 'Wallet linked', fallback: 'The wallet credential is linked to your account.' },
  conflict: {
    title: 'Wallet already linked',
    fallback: 'This wallet credential is already linked to another account.',
  },
  expired: { title: 'Request expired', fallback: 'The request expired. Start again.' },
  rejected: { title: 'Wallet not accepted', fallback: 'The wallet presentation was not accepted.' },
};

/**
 * GET /ui/wallet-link (interface.md 4.5): the confirmation screen, for a signed-in browser only. Its
 * form carries the session's CSRF token in a hidden field (docs/decisions.md #17).
 */
export async function showWalletLinkPage(deps: Deps, request: PageRequest): Promise<PageResult> {
  const session = await findBrowserSession(deps, request.cookies);
  if (!session) return signInRequiredPage(deps, 'wallet-link');
  const { links, walletLinks } = deps;
  return documentPage(links, 200, {
    title: 'Link a wallet',
    heading: 'Link a wallet to your account',
    content: html`<p>You are signed in as <strong>${session.email}</strong>.</p>
      <p>Once a credential from your digital identity wallet is linked, you can sign in with the wallet.</p>
      <form method="post" action="${walletLinks.link()}">
        <input type="hidden" name="csrf_token" value="${session.csrfToken}" />
        <div class="actions">
          <button type="submit" class="primary">Link a wallet</button>
        </div>
      </form>`,
  });
}

/**
 * POST /ui/wallet-link (interface.md 4.5, 4.2): wallet-bridge checks the session and the form's CSRF
 * token (docs/decisions.md #17, #19), then starts the link; the browser gets the binder cookie and
 * the QR code / deep link at once.
 */
export async function startWalletLink(deps: Deps, request: PageRequest): Promise<PageResult> {
  const sessionToken = request.cookies[SESSION_COOKIE];
  if (!sessionToken) return signInRequiredPage(deps);
  try {
    const flow = await deps.wallet.startLink({
      sessionToken,
      csrfToken: request.form.get('csrf_token') ?? '',
      origin: request.origin,
    });
    return await linkWaitingPage(deps, flow.handle, flow.invocationUri, walletFlowCookies(flow));
  } catch (error) {
    if (error instanceof UnauthorizedError) return signInRequiredPage(deps);
    if (error instanceof InvalidCsrfTokenError) return csrfRefusal();
    // docs/decisions.md #25: the feature went off after the route asked.
    if (error instanceof NotFoundError) return notFoundPage(deps);
    throw error;
  }
}

/**
 * GET /ui/wallet-link/{handle} (interface.md 4.5, 3): the waiting screen while pending, then the
 * outcome: linked, conflict, expired or rejected. A flow that is not this browser's (binder
 * cookie) and this user's is the one uniform refusal.
 */
export async function showWalletLinkOutcome(
  deps: Deps,
  request: PageRequest,
  handle: string | undefined,
): Promise<PageResult> {
  const sessionToken = request.cookies[SESSION_COOKIE];
  if (!sessionToken) return signInRequiredPage(deps);
  const binder = request.cookies[BINDER_COOKIE];
  if (handle === undefined || !binder) return walletRefusalPage(deps);
  let outcome: LinkOutcome;
  try {
    outcome = await deps.wallet.getLinkOutcome({ handle, binder, sessionToken });
  } catch (error) {
    if (error instanceof UnauthorizedError) return signInRequiredPage(deps);
    // The route has checked the feature is on: NotFoundError is the uniform refusal here.
    if (error instanceof NotFoundError) return walletRefusalPage(deps);
    throw error;
  }
  if (outcome.status === 'pending') {
    return linkWaitingPage(deps, handle, invocationUriFor(request.cookies, handle));
  }
  const view = OUTCOME_VIEWS[outcome.status];
  return documentPage(deps.links, 200, {
    title: view.title,
    content: html`<p role="status" data-status="${outcome.status}">${outcome.message ?? view.fallback}</p>`,
  });
}

function linkWaitingPage(
  deps: Deps,
  handle: string,
  invocationUri: string | undefined,
  setCookies: string[] = [],
): Promise<PageResult> {
  return walletWaitingPage(
    deps,
    {
      title: 'Link a wallet',
      purpose: LINK_PURPOSE,
      invocationUri,
      pollUrl: deps.walletLinks.linkOutcome(handle),
    },
    setCookies,
  );
}
