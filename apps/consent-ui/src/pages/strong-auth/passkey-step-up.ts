import { constantTimeEqual } from '@authz/shared/crypto';
import { InvalidCodeError, RateLimitedError, ValidationError } from '@authz/shared/errors';
import { findBrowserSession, type BrowserSession } from '../browser-session.js';
import { isHandleShaped } from '../shared/handle.js';
import type { PageRequest } from '../shared/page-request.js';
import { csrfRefusal, redirectPage, type PageResult } from '../shared/page-result.js';
import { expiredRequestPage, signInRequiredPage, tooManyAttemptsPage } from '../status/status-pages.js';
import { stepUpFormPage, stepUpMethods } from './step-up-page.js';

type Deps = Parameters<typeof stepUpFormPage>[0];

/** One message for every refused passkey step-up (docs/strong-authentication.md #21). */
export const PASSKEY_STEP_UP_REFUSED = 'That passkey could not confirm it is you. Try again.';

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** The signed-in session whose form fields carry its CSRF token (docs/decisions.md #17). */
async function checkedSession(
  deps: Deps,
  request: PageRequest,
): Promise<{ session: BrowserSession } | { refusal: PageResult }> {
  const session = await findBrowserSession(deps, request.cookies);
  if (!session) return { refusal: await signInRequiredPage(deps) };
  const sent = request.form.get('csrf_token');
  if (sent === undefined || !constantTimeEqual(sent, session.csrfToken)) return { refusal: csrfRefusal() };
  return { session };
}

/**
 * POST /ui/login/step-up/passkey/options: WebAuthn request options limited to the signed-in
 * user's passkeys; identity binds the challenge to this session (single use, 5 minutes).
 */
export async function submitPasskeyStepUpOptions(deps: Deps, request: PageRequest): Promise<PageResult> {
  const checked = await checkedSession(deps, request);
  if ('refusal' in checked) return checked.refusal;
  const body = await deps.secondFactors.passkeyStepUpOptions(checked.session.token);
  return { status: 200, contentType: JSON_CONTENT_TYPE, body, setCookies: [] };
}

/**
 * POST /ui/login/step-up/passkey: the assertion, with the page's CSRF token and handle. Identity
 * verifies it and strengthens the session; the browser then resumes the authorization, which
 * checks the acr again, exactly as after the authenticator app's code.
 */
export async function submitPasskeyStepUp(deps: Deps, request: PageRequest): Promise<PageResult> {
  const checked = await checkedSession(deps, request);
  if ('refusal' in checked) return checked.refusal;
  const { session } = checked;
  const handle = request.form.get('handle') ?? '';
  if (!isHandleShaped(handle)) return expiredRequestPage(deps);
  try {
    await deps.secondFactors.stepUpWithPasskey({
      sessionToken: session.token,
      responseJson: request.form.get('response') ?? '',
      origin: request.origin,
    });
  } catch (error) {
    if (error instanceof RateLimitedError) return tooManyAttemptsPage(deps);
    if (error instanceof InvalidCodeError || error instanceof ValidationError) {
      const methods = await stepUpMethods(deps, session.userId);
      return stepUpFormPage(deps, 401, { session, handle, passkeyError: PASSKEY_STEP_UP_REFUSED, methods });
    }
    throw error;
  }
  return redirectPage(303, deps.links.resume(handle));
}
