import { InvalidCsrfTokenError, NotFoundError, UnauthorizedError } from '@authz/shared/errors';
import { SESSION_COOKIE, WALLET_LINK_SIGN_IN_MAX_AGE_SECONDS } from '@authz/shared/protocol';
import { html } from '../../html/html.js';
import { findBrowserSession } from '../browser-session.js';
import type { PageRequest } from '../shared/page-request.js';
import { csrfRefusal, documentPage, type PageResult } from '../shared/page-result.js';
import type { Registry } from '../../registry.js';
import { notFoundPage, signInAgainPage, signInRequiredPage } from '../status/status-pages.js';
import { BINDER_COOKIE, invocationUriFor, walletFlowCookies } from './wallet-cookies.js';
import { decisionOf, walletConfirmationPage } from './wallet-confirmation-page.js';
import type { LinkOutcome, LinkStatus } from './wallet-port.js';
import { walletRefusalPage } from './wallet-status-pages.js';
import { walletWaitingPage } from './wallet-waiting-page.js';

type Deps = Pick<Registry, 'wallet' | 'walletLinks' | 'qrCodes' | 'identity' | 'links'>;

const LINK_PURPOSE = 'Your wallet is asked to present a credential to link to your account.';

/** interface.md 3, in plain words; wallet-bridge's own sentence is shown when it sends one. */
const OUTCOME_VIEWS: Record<
  Exclude<LinkStatus, 'pending' | 'presented'>,
  { title: string; fallback: string }
> = {
  linked: { title: 'Wallet linked', fallback: 'The wallet credential is linked to your account.' },
  conflict: {
    title: 'Wallet already linked',
    fallback: 'This wallet credential is already linked to another account.',
  },
  expired: { title: 'Request expired', fallback: 'The request expired. Start again.' },
  rejected: { title: 'Wallet not accepted', fallback: 'The wallet presentation was not accepted.' },
  cancelled: { title: 'Linking cancelled', fallback: 'Linking was cancelled. Nothing was linked.' },
};

/** docs/wallet.md #19: the session's sign-in is recent enough to start a link. */
function isRecent(authTime: number, now = Date.now()): boolean {
  return authTime * 1000 >= now - WALLET_LINK_SIGN_IN_MAX_AGE_SECONDS * 1000;
}

/**
 * GET /ui/wallet-link (interface.md 4.5): the start screen, for a browser signed in within the last
 * 5 minutes (docs/wallet.md #19; otherwise "sign in again"). Its form carries the session's CSRF
 * token in a hidden field (docs/decisions.md #17).
 */
export async function showWalletLinkPage(deps: Deps, request: PageRequest): Promise<PageResult> {
  const session = await findBrowserSession(deps, request.cookies);
  if (!session) return signInRequiredPage(deps, 'wallet-link');
  if (!isRecent(session.authTime)) return signInAgainPage(deps, 'wallet-link');
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
 * POST /ui/wallet-link (interface.md 4.5, 4.2): wallet-bridge checks the session, the form's CSRF
 * token (docs/decisions.md #17, #19) and that the sign-in is recent (docs/wallet.md #19), then
 * starts the link; the browser gets the binder cookie and the QR code / deep link at once.
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
    return linkRefusal(deps, error, true);
  }
}

/**
 * GET /ui/wallet-link/{handle} (interface.md 4.5, 3): the waiting screen while pending; once the
 * wallet's answer verified, the confirmation screen (docs/wallet.md #16); then the outcome:
 * linked, conflict, expired, rejected or cancelled. A flow that is not this browser's (binder
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
    return linkRefusal(deps, error);
  }
  return outcomePage(deps, request, handle, outcome);
}

/**
 * POST /ui/wallet-link/{handle} (docs/wallet.md #16): the decision on the confirmation screen,
 * with the session's CSRF token, from the browser holding the flow's binder cookie. Confirm
 * links, cancel links nothing; then the outcome screen.
 */
export async function decideWalletLink(
  deps: Deps,
  request: PageRequest,
  handle: string | undefined,
): Promise<PageResult> {
  const sessionToken = request.cookies[SESSION_COOKIE];
  if (!sessionToken) return signInRequiredPage(deps);
  const binder = request.cookies[BINDER_COOKIE];
  const confirm = decisionOf(request.form);
  if (handle === undefined || !binder || confirm === undefined) return walletRefusalPage(deps);
  let outcome: LinkOutcome;
  try {
    outcome = await deps.wallet.confirmLink({
      handle,
      binder,
      sessionToken,
      csrfToken: request.form.get('csrf_token') ?? '',
      confirm,
    });
  } catch (error) {
    return linkRefusal(deps, error);
  }
  return outcomePage(deps, request, handle, outcome);
}

async function outcomePage(
  deps: Deps,
  request: PageRequest,
  handle: string,
  outcome: LinkOutcome,
): Promise<PageResult> {
  if (outcome.status === 'pending') {
    return linkWaitingPage(deps, handle, invocationUriFor(request.cookies, handle));
  }
  if (outcome.status === 'presented') {
    const session = await findBrowserSession(deps, request.cookies);
    if (!session) return signInRequiredPage(deps);
    return walletConfirmationPage(deps, {
      purpose: 'link',
      presented: outcome.presented!,
      action: deps.walletLinks.linkOutcome(handle),
      hidden: [['csrf_token', session.csrfToken]],
    });
  }
  const view = OUTCOME_VIEWS[outcome.status];
  return documentPage(deps.links, 200, {
    title: view.title,
    content: html`<p role="status" data-status="${outcome.status}">${outcome.message ?? view.fallback}</p>`,
  });
}

/** What wallet-bridge's refusals become on these pages. */
function linkRefusal(deps: Deps, error: unknown, starting = false): PageResult {
  if (error instanceof UnauthorizedError) {
    // docs/wallet.md #19: a live session whose sign-in is too old to start a link.
    return starting && error.hasCustomMessage
      ? signInAgainPage(deps, 'wallet-link')
      : signInRequiredPage(deps);
  }
  if (error instanceof InvalidCsrfTokenError) return csrfRefusal();
  // docs/decisions.md #25: the feature went off after the route asked; otherwise the uniform refusal.
  if (error instanceof NotFoundError) return starting ? notFoundPage(deps) : walletRefusalPage(deps);
  throw error;
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
