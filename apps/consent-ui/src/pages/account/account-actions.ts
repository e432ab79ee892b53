import { constantTimeEqual } from '@authz/shared/crypto';
import {
  InvalidCredentialsError,
  NotFoundError,
  RateLimitedError,
  ValidationError,
} from '@authz/shared/errors';
import { clearedSessionCookie } from '../../cookies/set-cookie.js';
import { html } from '../../html/html.js';
import { findBrowserSession, type BrowserSession } from '../browser-session.js';
import type { PageRequest } from '../shared/page-request.js';
import { csrfRefusal, documentPage, redirectPage, type PageResult } from '../shared/page-result.js';
import type { Registry } from '../../registry.js';
import { signInRequiredPage, tooManyAttemptsPage } from '../status/status-pages.js';
import { accountPage, WRONG_PASSWORD } from './account-page.js';

type Deps = Pick<
  Registry,
  | 'identity'
  | 'links'
  | 'accounts'
  | 'accountLinks'
  | 'federation'
  | 'federationLinks'
  | 'secondFactors'
  | 'strongAuthLinks'
>;

/**
 * Every POST of the account page checks, in order, the session, then its CSRF token compared in
 * constant time (docs/decisions.md #17, #19), before anything acts (docs/hosted-pages.md #8).
 */
export async function checkedSession(
  deps: Pick<Deps, 'identity' | 'links'>,
  request: PageRequest,
): Promise<BrowserSession | PageResult> {
  const session = await findBrowserSession(deps, request.cookies);
  if (!session) return signInRequiredPage(deps);
  const sent = request.form.get('csrf_token');
  if (sent === undefined || !constantTimeEqual(sent, session.csrfToken)) return csrfRefusal();
  return session;
}

export const isPage = (value: BrowserSession | PageResult): value is PageResult => 'status' in value;

/** POST /ui/account/name: sets the name, or removes it when the field is empty. */
export async function submitName(deps: Deps, request: PageRequest): Promise<PageResult> {
  const session = await checkedSession(deps, request);
  if (isPage(session)) return session;
  const name = (request.form.get('name') ?? '').trim();
  try {
    await deps.accounts.updateName({
      userId: session.userId,
      name: name === '' ? null : name,
      origin: request.origin,
    });
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return accountPage(deps, session, {
      status: 400,
      nameError: 'The name must be 1 to 255 characters long.',
    });
  }
  return redirectPage(303, deps.accountLinks.account('name'));
}

/**
 * POST /ui/account/sessions/end: signs out one other session of the user, revoking what was
 * issued in it (docs/tokens.md #15). Another user's or an ended session is the 400 page.
 */
export async function submitSessionEnd(deps: Deps, request: PageRequest): Promise<PageResult> {
  const session = await checkedSession(deps, request);
  if (isPage(session)) return session;
  const sessionId = request.form.get('session_id') ?? '';
  if (sessionId === session.sessionId) return signOut(deps, session, request);
  try {
    await deps.accounts.endSession({ userId: session.userId, sessionId, origin: request.origin });
  } catch (error) {
    if (error instanceof NotFoundError)
      throw new ValidationError([{ path: 'session_id', message: 'is not a live session' }]);
    throw error;
  }
  return redirectPage(303, deps.accountLinks.account('session-ended'));
}

/** POST /ui/account/sign-out: ends this browser's session and removes its cookie. */
export async function submitSignOut(deps: Deps, request: PageRequest): Promise<PageResult> {
  const session = await checkedSession(deps, request);
  if (isPage(session)) return session;
  return signOut(deps, session, request);
}

async function signOut(deps: Deps, session: BrowserSession, request: PageRequest): Promise<PageResult> {
  try {
    await deps.accounts.endSession({
      userId: session.userId,
      sessionId: session.sessionId,
      origin: request.origin,
    });
  } catch (error) {
    // Ended meanwhile (another tab): signed out all the same.
    if (!(error instanceof NotFoundError)) throw error;
  }
  return redirectPage(303, deps.links.login(), [clearedSessionCookie()]);
}

/**
 * POST /ui/account/delete: the account's deletion in the order of docs/identity.md #19, with the
 * password. A wrong one is the page again (401) with its message; success ends on a page of
 * its own, the session cookie removed.
 */
export async function submitDelete(deps: Deps, request: PageRequest): Promise<PageResult> {
  const session = await checkedSession(deps, request);
  if (isPage(session)) return session;
  try {
    await deps.accounts.deleteAccount({
      userId: session.userId,
      password: request.form.get('password') ?? '',
      origin: request.origin,
    });
  } catch (error) {
    if (error instanceof RateLimitedError) return tooManyAttemptsPage(deps);
    if (error instanceof InvalidCredentialsError || error instanceof ValidationError) {
      return accountPage(deps, session, { status: 401, deleteError: WRONG_PASSWORD });
    }
    throw error;
  }
  return documentPage(
    deps.links,
    200,
    {
      title: 'Account deleted',
      heading: 'Your account has been deleted',
      content: html`<p>Everything we held for <strong>${session.email}</strong> has been removed.</p>
        <p><a href="${deps.accountLinks.register()}">Create a new account</a></p>`,
    },
    [clearedSessionCookie()],
  );
}
