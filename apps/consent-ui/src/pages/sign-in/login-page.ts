import { InvalidCredentialsError, RateLimitedError, ValidationError } from '@authz/shared/errors';
import { WALLET_LINK_SIGN_IN_MAX_AGE_SECONDS } from '@authz/shared/protocol';
import { isPreSessionShaped, loginCsrfToken, newPreSession } from '../../cookies/login-csrf.js';
import { clearedLoginCookie, LOGIN_COOKIE, loginCookie } from '../../cookies/set-cookie.js';
import { html, type SafeHtml } from '../../html/html.js';
import type { PendingAuthorization } from '../authorization/authorization-port.js';
import { findBrowserSession } from '../browser-session.js';
import { isHandleShaped } from '../shared/handle.js';
import { signInFormFields } from '../shared/sign-in-form-fields.js';
import type { PageRequest } from '../shared/page-request.js';
import {
  documentPage,
  redirectPage,
  signedIn,
  signInFailed,
  type PageResult,
} from '../shared/page-result.js';
import type { Registry } from '../../registry.js';
import { secondStepPage } from '../strong-auth/second-step-page.js';
import { stepUpPage } from '../strong-auth/step-up-page.js';
import type { SignInResult } from './identity-port.js';
import { afterSignIn, nextPageOf, type NextPage } from './after-sign-in.js';
import { signedInPage } from './signed-in-page.js';
import { expiredRequestPage, refusalPage, tooManyAttemptsPage } from '../status/status-pages.js';
import { walletSignInOffer } from '../wallet/wallet-sign-in-offer.js';
import { federationSignInOffer } from '../federation/federation-sign-in-offer.js';
import { passkeySignInOffer, passkeyScripts } from '../strong-auth/passkey-sign-in-offer.js';
import { checkSignInSubmission } from './sign-in-submission.js';

type Deps = Pick<
  Registry,
  | 'identity'
  | 'authorization'
  | 'links'
  | 'loginCsrfKey'
  | 'wallet'
  | 'walletLinks'
  | 'recoveryLinks'
  | 'accountLinks'
  | 'federation'
  | 'federationLinks'
  | 'secondFactors'
  | 'strongAuthLinks'
>;

/** interface.md 4.2: one message for an unknown email and a wrong password alike (no enumeration). */
const SIGN_IN_FAILED = 'The email or password is incorrect.';

function isRecentSignIn(authTime: number): boolean {
  return authTime * 1000 >= Date.now() - WALLET_LINK_SIGN_IN_MAX_AGE_SECONDS * 1000;
}

/**
 * GET /ui/login (interface.md 4.5). With `handle` it continues a pending authorization and names its
 * client; without one it is a plain sign-in, or the signed-in page for a browser that already
 * has a session. The form is bound to the pre-session cookie, set here unless the browser
 * already holds a well-formed one (docs/decisions.md #17).
 */
export async function showLoginPage(deps: Deps, request: PageRequest): Promise<PageResult> {
  const handle = request.query.get('handle') || undefined;
  const next = handle === undefined ? nextPageOf(request.query.get('next')) : undefined;
  // Asked meanwhile; it never fails (wallet-sign-in-offer.ts).
  const walletOffer = walletSignInOffer(deps, handle);
  const federationOffer = federationSignInOffer(deps, handle);
  if (handle === undefined) {
    const session = await findBrowserSession(deps, request.cookies);
    // docs/wallet.md #19: linking needs a recent sign-in, so an older session signs in again.
    if (session && next !== undefined && isRecentSignIn(session.authTime)) {
      return redirectPage(303, afterSignIn(deps, undefined, next));
    }
    if (session && next === undefined) return signedInPage(deps, session.email);
  } else if (!isHandleShaped(handle)) {
    return expiredRequestPage(deps);
  }
  let pending: PendingAuthorization | undefined;
  try {
    pending = handle === undefined ? undefined : await deps.authorization.getPendingAuthorization(handle);
  } catch (error) {
    return refusalPage(deps, error);
  }
  // docs/strong-authentication.md #14: a signed-in user whose session is too weak adds a factor.
  if (pending?.acrRequired !== undefined && !pending.loginRequired) {
    const stepUp = await stepUpPage(deps, request, handle!, pending);
    if (stepUp) return stepUp;
  }
  const held = request.cookies[LOGIN_COOKIE];
  const preSession = isPreSessionShaped(held) ? held : newPreSession();
  return loginFormPage(
    deps,
    200,
    {
      handle,
      next,
      pending,
      csrfToken: loginCsrfToken(deps.loginCsrfKey, preSession, handle),
      walletOffer: await walletOffer,
      federationOffer: await federationOffer,
    },
    preSession === held ? [] : [loginCookie(preSession)],
  );
}

/**
 * POST /ui/login (interface.md 4.5): the CSRF token must fit this browser's pre-session cookie and the
 * form's pending authorization (docs/decisions.md #17, #19). Then identity checks the credentials
 * and opens the browser session; the browser goes on to resume the authorization.
 */
export async function submitLogin(deps: Deps, request: PageRequest): Promise<PageResult> {
  const submission = checkSignInSubmission(deps, request);
  if ('refused' in submission) return submission.refused;
  const { preSession, handle, next } = submission;
  const email = request.form.get('email') ?? '';
  let signIn: SignInResult;
  try {
    signIn = await deps.identity.signIn({
      email,
      password: request.form.get('password') ?? '',
      origin: request.origin,
    });
  } catch (error) {
    if (error instanceof RateLimitedError) return signInFailed(tooManyAttemptsPage(deps), 'rate_limited');
    if (error instanceof InvalidCredentialsError || error instanceof ValidationError) {
      const page = await failedSignInPage(deps, { handle, next, preSession, email });
      return signInFailed(page, 'invalid_credentials');
    }
    throw error;
  }
  // docs/strong-authentication.md #6: the password was right, the second step is due.
  if (signIn.mfaToken !== undefined)
    return secondStepPage(deps, 200, { handle, next, preSession, mfaToken: signIn.mfaToken });
  // The gateway sets the session cookie from the outcome (docs/hosted-pages.md #2); the
  // pre-session has served its purpose.
  return signedIn(
    redirectPage(303, afterSignIn(deps, handle, next), [clearedLoginCookie()]),
    signIn.sessionToken,
  );
}

/** The form again, 401, with the generic message and the email as typed (never the password). */
export async function failedSignInPage(
  deps: Deps,
  {
    handle,
    next,
    preSession,
    email,
    message = SIGN_IN_FAILED,
  }: {
    handle: string | undefined;
    next: NextPage | undefined;
    preSession: string;
    email: string;
    message?: string;
  },
): Promise<PageResult> {
  let pending: PendingAuthorization | undefined;
  try {
    pending = handle === undefined ? undefined : await deps.authorization.getPendingAuthorization(handle);
  } catch (error) {
    return refusalPage(deps, error);
  }
  const csrfToken = loginCsrfToken(deps.loginCsrfKey, preSession, handle);
  const federationOffer = await federationSignInOffer(deps, handle);
  return loginFormPage(deps, 401, {
    handle,
    next,
    pending,
    csrfToken,
    email,
    failed: message,
    federationOffer,
  });
}

interface LoginFormView {
  handle: string | undefined;
  /** Where a plain sign-in continues (NEXT_PAGES). */
  next?: NextPage | undefined;
  pending: PendingAuthorization | undefined;
  csrfToken: string;
  email?: string;
  /** The message of a refused sign-in. */
  failed?: string;
  /** The link to wallet sign-in, when offered. */
  walletOffer?: SafeHtml | undefined;
  /** "Continue with <provider>" links (interface.md 4.14). */
  federationOffer?: SafeHtml | undefined;
}

/** docs/contract.md "Hosted pages": one form, an email input, a password input, one submit button. */
function loginFormPage(
  {
    links,
    recoveryLinks,
    accountLinks,
    strongAuthLinks,
  }: Pick<Registry, 'links' | 'recoveryLinks' | 'accountLinks' | 'strongAuthLinks'>,
  status: number,
  { handle, next, pending, csrfToken, email = '', failed, walletOffer, federationOffer }: LoginFormView,
  setCookies: string[] = [],
): PageResult {
  const invalid = failed !== undefined && html` aria-invalid="true" aria-describedby="sign-in-error"`;
  const clientName = pending?.clientName;
  const page = documentPage(
    links,
    status,
    {
      title: 'Sign in',
      heading: clientName === undefined ? 'Sign in' : `Sign in to continue to ${clientName}`,
      scripts: passkeyScripts(strongAuthLinks),
      content: html`${failed !== undefined && html`<p class="alert" role="alert" id="sign-in-error">${failed}</p>`}
        <form method="post" action="${links.login()}" id="sign-in-form">
          ${signInFormFields({ handle, next, csrfToken })}
          <div class="field">
            <label for="email">Email</label>
            <input
              id="email"
              type="email"
              name="email"
              value="${email}"
              autocomplete="username webauthn"
              required${invalid}
            />
          </div>
          <div class="field">
            <label for="password">Password</label>
            <input
              id="password"
              type="password"
              name="password"
              autocomplete="current-password"
              required${invalid}
            />
          </div>
          <div class="actions">
            <button type="submit" class="primary">Sign in</button>
          </div>
        </form>
        ${passkeySignInOffer(strongAuthLinks, 'sign-in-form', failed === undefined)}
        <p><a href="${recoveryLinks.forgotPassword()}">Forgot password?</a></p>
        <p><a href="${accountLinks.register(handle)}">Create an account</a></p>
        ${walletOffer}${federationOffer}`,
    },
    setCookies,
  );
  // A sign-in for a client may be redirected on to its redirect URI (CSP form-action).
  return pending ? { ...page, formActionOrigins: [pending.redirectOrigin] } : page;
}
