import { InvalidCredentialsError, ValidationError } from '@authz/shared/errors';
import { clearedLoginCookie } from '../../cookies/set-cookie.js';
import type { Registry } from '../../registry.js';
import type { PageRequest } from '../shared/page-request.js';
import { redirectPage, signedIn, signInFailed, type PageResult } from '../shared/page-result.js';
import { afterSignIn } from '../sign-in/after-sign-in.js';
import { failedSignInPage } from '../sign-in/login-page.js';
import { checkSignInSubmission } from '../sign-in/sign-in-submission.js';

type Deps = Parameters<typeof failedSignInPage>[0] & Pick<Registry, 'secondFactors'>;

/** One message for every refused passkey (docs/strong-authentication.md #18): nothing to learn from it. */
const PASSKEY_REFUSED = 'That passkey could not sign you in. Try again, or sign in with your password.';

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * POST /ui/login/passkey/options: WebAuthn request options for a discoverable credential. The
 * challenge is stored by identity (single use, 5 minutes); asking needs no session.
 */
export async function submitPasskeySignInOptions(deps: Pick<Registry, 'secondFactors'>): Promise<PageResult> {
  const body = await deps.secondFactors.passkeySignInOptions();
  return { status: 200, contentType: JSON_CONTENT_TYPE, body, setCookies: [] };
}

/**
 * POST /ui/login/passkey: the assertion, with the sign-in form's CSRF token and pending
 * authorization (docs/decisions.md #17). A passkey is a whole sign-in: the session opens and the
 * browser goes on exactly as after a password (after-sign-in.ts).
 */
export async function submitPasskeySignIn(deps: Deps, request: PageRequest): Promise<PageResult> {
  const submission = checkSignInSubmission(deps, request);
  if ('refused' in submission) return submission.refused;
  const { preSession, handle, next } = submission;
  let sessionToken: string;
  try {
    sessionToken = await deps.secondFactors.signInWithPasskey({
      responseJson: request.form.get('response') ?? '',
      origin: request.origin,
    });
  } catch (error) {
    if (error instanceof InvalidCredentialsError || error instanceof ValidationError) {
      const page = await failedSignInPage(deps, {
        handle,
        next,
        preSession,
        email: '',
        message: PASSKEY_REFUSED,
      });
      return signInFailed(page, 'invalid_credentials');
    }
    throw error;
  }
  return signedIn(redirectPage(303, afterSignIn(deps, handle, next), [clearedLoginCookie()]), sessionToken);
}
