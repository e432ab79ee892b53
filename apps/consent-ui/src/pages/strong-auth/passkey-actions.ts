import { ConflictError, InvalidCodeError, NotFoundError, ValidationError } from '@authz/shared/errors';
import { html } from '../../html/html.js';
import { checkedSession, isPage } from '../account/account-actions.js';
import type { PageRequest } from '../shared/page-request.js';
import { documentPage, redirectPage, type PageResult } from '../shared/page-result.js';
import type { Registry } from '../../registry.js';
import { hasRecentSignIn } from './recent-sign-in.js';

type Deps = Pick<Registry, 'identity' | 'links' | 'secondFactors' | 'accountLinks'>;

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * POST /ui/account/passkeys/options (docs/strong-authentication.md #16): creation options for
 * the signed-in user, with the session's CSRF token and a recent sign-in; otherwise the same
 * pages as the forms (the script then shows its own message).
 */
export async function submitPasskeyRegistrationOptions(
  deps: Deps,
  request: PageRequest,
): Promise<PageResult> {
  const session = await checkedSession(deps, request);
  if (isPage(session)) return session;
  if (!hasRecentSignIn(session)) return signInAgainPage(deps);
  const body = await deps.secondFactors.passkeyRegistrationOptions(session.userId);
  return { status: 200, contentType: JSON_CONTENT_TYPE, body, setCookies: [] };
}

/** POST /ui/account/passkeys: the new credential, verified and stored by identity. */
export async function submitPasskeyRegister(deps: Deps, request: PageRequest): Promise<PageResult> {
  const session = await checkedSession(deps, request);
  if (isPage(session)) return session;
  if (!hasRecentSignIn(session)) return signInAgainPage(deps);
  const responseJson = request.form.get('response') ?? '';
  if (responseJson === '') {
    return messagePage(deps, 400, 'Adding a passkey needs JavaScript in this browser. Nothing was added.');
  }
  try {
    await deps.secondFactors.registerPasskey({
      userId: session.userId,
      responseJson,
      name: request.form.get('name') ?? '',
      origin: request.origin,
    });
  } catch (error) {
    if (error instanceof ValidationError) return messagePage(deps, 400, NAME_RULE);
    if (error instanceof InvalidCodeError) {
      return messagePage(deps, 400, 'The passkey could not be verified. Nothing was added.');
    }
    throw error;
  }
  return redirectPage(303, deps.accountLinks.account());
}

const NAME_RULE = 'A passkey name is 1 to 64 characters long. Nothing was changed.';

/** POST /ui/account/passkeys/rename (docs/strong-authentication.md #17). */
export async function submitPasskeyRename(deps: Deps, request: PageRequest): Promise<PageResult> {
  const session = await checkedSession(deps, request);
  if (isPage(session)) return session;
  try {
    await deps.secondFactors.renamePasskey({
      userId: session.userId,
      passkeyId: request.form.get('passkey_id') ?? '',
      name: request.form.get('name') ?? '',
      origin: request.origin,
    });
  } catch (error) {
    if (error instanceof ValidationError) return messagePage(deps, 400, NAME_RULE);
    if (error instanceof NotFoundError) return messagePage(deps, 404, NOT_FOUND);
    throw error;
  }
  return redirectPage(303, deps.accountLinks.account());
}

const NOT_FOUND = 'That passkey is not on your account. Nothing was changed.';

/** POST /ui/account/passkeys/remove (docs/strong-authentication.md #17): needs a recent sign-in. */
export async function submitPasskeyRemove(deps: Deps, request: PageRequest): Promise<PageResult> {
  const session = await checkedSession(deps, request);
  if (isPage(session)) return session;
  if (!hasRecentSignIn(session)) return signInAgainPage(deps);
  try {
    await deps.secondFactors.removePasskey({
      userId: session.userId,
      passkeyId: request.form.get('passkey_id') ?? '',
      origin: request.origin,
    });
  } catch (error) {
    if (error instanceof NotFoundError) return messagePage(deps, 404, NOT_FOUND);
    if (error instanceof ConflictError) {
      return messagePage(deps, 409, 'This passkey is the only way into your account, so it stays.');
    }
    throw error;
  }
  return redirectPage(303, deps.accountLinks.account());
}

function messagePage(deps: Deps, status: number, message: string): PageResult {
  return documentPage(deps.links, status, {
    title: 'Passkeys',
    content: html`<p class="alert" role="alert">${message}</p>
      <p><a href="${deps.accountLinks.account()}">Back to your account</a></p>`,
  });
}

/** Older than 5 minutes: sign in again and come back to the account page (docs/strong-authentication.md #16). */
function signInAgainPage(deps: Deps): PageResult {
  return documentPage(deps.links, 401, {
    title: 'Sign in again',
    content: html`<p>Changing your passkeys needs a recent sign-in. Sign in again to go on.</p>
      <p>
        <a href="${deps.links.login()}?next=account">Sign in</a> and you will be brought back to your account.
      </p>`,
  });
}
