import { NotFoundError } from '@authz/shared/errors';
import { isPreSessionShaped, newPreSession } from '../../cookies/login-csrf.js';
import { clearedLoginCookie, LOGIN_COOKIE, loginCookie } from '../../cookies/set-cookie.js';
import { html } from '../../html/html.js';
import type { PendingAuthorization } from '../authorization/authorization-port.js';
import { isHandleShaped } from '../shared/handle.js';
import type { PageRequest } from '../shared/page-request.js';
import { csrfRefusal, documentPage, redirectPage, signedIn, type PageResult } from '../shared/page-result.js';
import type { Registry } from '../../registry.js';
import { expiredRequestPage, notFoundPage, refusalPage } from '../status/status-pages.js';
import {
  BINDER_COOKIE,
  clearedWalletFlowCookies,
  invocationUriFor,
  walletFlowCookies,
} from './wallet-cookies.js';
import { decisionOf, walletConfirmationPage } from './wallet-confirmation-page.js';
import {
  isWalletConfirmCsrfTokenValid,
  isWalletLoginCsrfTokenValid,
  walletConfirmCsrfToken,
  walletLoginCsrfToken,
} from './wallet-login-csrf.js';
import type { SignInOutcome } from './wallet-port.js';
import { walletRefusalPage } from './wallet-status-pages.js';
import { walletWaitingPage } from './wallet-waiting-page.js';

type Deps = Pick<Registry, 'wallet' | 'walletLinks' | 'qrCodes' | 'authorization' | 'links' | 'loginCsrfKey'>;

const SIGN_IN_PURPOSE = 'Your wallet is asked to present a credential that is linked to your account.';

/**
 * GET /ui/wallet-login (interface.md 4.5): the start form. Like the sign-in form it continues the
 * pending authorization `handle` when given, and is bound to the pre-session cookie and that
 * handle (docs/decisions.md #17), which it sets unless the browser already holds one.
 */
export async function showWalletLoginPage(deps: Deps, request: PageRequest): Promise<PageResult> {
  const handle = request.query.get('handle') || undefined;
  if (handle !== undefined && !isHandleShaped(handle)) return expiredRequestPage(deps);
  let pending: PendingAuthorization | undefined;
  try {
    pending = handle === undefined ? undefined : await deps.authorization.getPendingAuthorization(handle);
  } catch (error) {
    return refusalPage(deps, error);
  }
  const held = request.cookies[LOGIN_COOKIE];
  const preSession = isPreSessionShaped(held) ? held : newPreSession();
  const csrfToken = walletLoginCsrfToken(deps.loginCsrfKey, preSession, handle);
  const { links, walletLinks } = deps;
  return documentPage(
    links,
    200,
    {
      title: 'Sign in with a wallet',
      heading:
        pending === undefined
          ? 'Sign in with a wallet'
          : `Sign in with a wallet to continue to ${pending.clientName}`,
      content: html`<p>
          Use a credential in your digital identity wallet that you have linked to your account.
        </p>
        <form method="post" action="${walletLinks.signIn()}">
          ${handle !== undefined && html`<input type="hidden" name="handle" value="${handle}" />`}
          <input type="hidden" name="csrf_token" value="${csrfToken}" />
          <div class="actions">
            <button type="submit" class="primary">Continue with a wallet</button>
          </div>
        </form>
        <p><a href="${links.login(handle)}">Sign in with email and password instead</a></p>`,
    },
    preSession === held ? [] : [loginCookie(preSession)],
  );
}

/**
 * POST /ui/wallet-login (interface.md 4.5): the CSRF token must fit this browser's pre-session and
 * the form's pending authorization (docs/decisions.md #17, #19). Then the sign-in starts; the
 * browser gets the binder cookie and the QR code / deep link at once.
 */
export async function startWalletLogin(deps: Deps, request: PageRequest): Promise<PageResult> {
  const preSession = request.cookies[LOGIN_COOKIE];
  const handle = request.form.get('handle') || undefined;
  if (!isWalletLoginCsrfTokenValid(deps.loginCsrfKey, preSession, handle, request.form.get('csrf_token'))) {
    return csrfRefusal();
  }
  if (handle !== undefined && !isHandleShaped(handle)) return expiredRequestPage(deps);
  const flow = await whileAvailable(() => deps.wallet.startSignIn(request.origin));
  if (!flow) return notFoundPage(deps);
  return signInWaitingPage(deps, flow.handle, flow.invocationUri, handle, walletFlowCookies(flow, handle));
}

/** GET /ui/wallet-login/{handle} (interface.md 4.5): the waiting screen; it reads no outcome itself. */
export async function showWalletLoginWaiting(
  deps: Deps,
  request: PageRequest,
  handle: string | undefined,
): Promise<PageResult> {
  const returnTo = request.query.get('handle') || undefined;
  if (returnTo !== undefined && !isHandleShaped(returnTo)) return expiredRequestPage(deps);
  if (handle === undefined || !request.cookies[BINDER_COOKIE]) return walletRefusalPage(deps);
  return signInWaitingPage(deps, handle, invocationUriFor(request.cookies, handle), returnTo);
}

/**
 * GET /ui/wallet-login/{handle}/status (interface.md 4.5, 2.6): wallet-bridge verifies the answer;
 * a verified one is shown on the confirmation screen (docs/wallet.md #16), whose form posts
 * back here. Pending: the waiting screen again. Anything else: the one uniform refusal.
 */
export async function readWalletLoginStatus(
  deps: Deps,
  request: PageRequest,
  handle: string | undefined,
): Promise<PageResult> {
  const returnTo = request.query.get('handle') || undefined;
  if (returnTo !== undefined && !isHandleShaped(returnTo)) return expiredRequestPage(deps);
  const binder = request.cookies[BINDER_COOKIE];
  if (handle === undefined || !binder) return walletRefusalPage(deps);
  const outcome = await whileAvailable(() =>
    deps.wallet.getSignInOutcome({ handle, binder, origin: request.origin }),
  );
  if (!outcome) return notFoundPage(deps);
  return signInOutcomePage(deps, request, handle, returnTo, outcome);
}

/**
 * POST /ui/wallet-login/{handle}/status (docs/wallet.md #16): the decision on the confirmation
 * screen. Its CSRF token is bound to this browser's pre-session and the flow; the binder cookie
 * to the flow. Confirm: identity opens a session for the linked account, once, and the page
 * sets the session cookie as the sign-in form does and sends the browser on, to the pending
 * authorization it started from, else to the signed-in page. Cancel: nobody is signed in.
 */
export async function decideWalletLogin(
  deps: Deps,
  request: PageRequest,
  handle: string | undefined,
): Promise<PageResult> {
  const returnTo = request.form.get('handle') || undefined;
  const binder = request.cookies[BINDER_COOKIE];
  if (handle === undefined) return walletRefusalPage(deps);
  if (
    !isWalletConfirmCsrfTokenValid(
      deps.loginCsrfKey,
      request.cookies[LOGIN_COOKIE],
      handle,
      request.form.get('csrf_token'),
    )
  ) {
    return csrfRefusal();
  }
  if (returnTo !== undefined && !isHandleShaped(returnTo)) return expiredRequestPage(deps);
  const confirm = decisionOf(request.form);
  if (!binder || confirm === undefined) return walletRefusalPage(deps);
  const outcome = await whileAvailable(() =>
    deps.wallet.confirmSignIn({ handle, binder, confirm, origin: request.origin }),
  );
  if (!outcome) return notFoundPage(deps);
  if (!confirm && outcome.kind === 'refused') return cancelledPage(deps);
  return signInOutcomePage(deps, request, handle, returnTo, outcome);
}

function signInOutcomePage(
  deps: Deps,
  request: PageRequest,
  handle: string,
  returnTo: string | undefined,
  outcome: SignInOutcome,
): Promise<PageResult> | PageResult {
  switch (outcome.kind) {
    case 'presented': {
      const preSession = request.cookies[LOGIN_COOKIE];
      // A wallet sign-in starts only with a pre-session (startWalletLogin): without one now,
      // this is not the browser that started it.
      if (!isPreSessionShaped(preSession)) return walletRefusalPage(deps);
      return walletConfirmationPage(deps, {
        purpose: 'sign_in',
        presented: outcome.presented,
        action: deps.walletLinks.signInStatus(handle),
        hidden: [
          ['csrf_token', walletConfirmCsrfToken(deps.loginCsrfKey, preSession, handle)],
          ...(returnTo === undefined ? [] : [['handle', returnTo] as const]),
        ],
      });
    }
    case 'pending':
      return signInWaitingPage(deps, handle, invocationUriFor(request.cookies, handle), returnTo);
    case 'signed_in':
      // The gateway sets the session cookie from the outcome (docs/hosted-pages.md #2); the
      // pre-session and the flow have served.
      return signedIn(
        redirectPage(303, returnTo === undefined ? deps.links.login() : deps.links.resume(returnTo), [
          clearedLoginCookie(),
          ...clearedWalletFlowCookies(),
        ]),
        outcome.sessionToken,
      );
    case 'refused':
      return walletRefusalPage(deps);
  }
}

/** docs/wallet.md #16: the user refused the presented credential; nobody is signed in. */
function cancelledPage(deps: Deps): PageResult {
  return documentPage(deps.links, 200, {
    title: 'Wallet sign-in cancelled',
    content: html`<p role="status" data-status="cancelled">Nobody was signed in.</p>
      <p><a href="${deps.walletLinks.signIn()}">Start again</a></p>`,
  });
}

function signInWaitingPage(
  deps: Deps,
  handle: string,
  invocationUri: string | undefined,
  returnTo: string | undefined,
  setCookies: string[] = [],
): Promise<PageResult> {
  return walletWaitingPage(
    deps,
    {
      title: 'Sign in with a wallet',
      purpose: SIGN_IN_PURPOSE,
      invocationUri,
      pollUrl: deps.walletLinks.signInStatus(handle, returnTo),
    },
    setCookies,
  );
}

/**
 * docs/decisions.md #25: wallet-bridge answers NotFoundError while the feature is off. The route
 * asked before the page ran; this covers the feature going off in between. Undefined then.
 */
async function whileAvailable<T>(call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}
