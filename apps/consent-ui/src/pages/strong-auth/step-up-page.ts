import { constantTimeEqual } from '@authz/shared/crypto';
import { InvalidCodeError, RateLimitedError, ValidationError } from '@authz/shared/errors';
import { acrOf, satisfiesAcr } from '@authz/shared/protocol';
import { html } from '../../html/html.js';
import type { PendingAuthorization } from '../authorization/authorization-port.js';
import { findBrowserSession, type BrowserSession } from '../browser-session.js';
import { isHandleShaped } from '../shared/handle.js';
import type { PageRequest } from '../shared/page-request.js';
import { csrfRefusal, documentPage, redirectPage, type PageResult } from '../shared/page-result.js';
import type { Registry } from '../../registry.js';
import { expiredRequestPage, signInRequiredPage, tooManyAttemptsPage } from '../status/status-pages.js';
import { codeField, WRONG_CODE } from './code-field.js';
import { passkeyScripts } from './passkey-sign-in-offer.js';
import { passkeyStepUpOffer } from './passkey-step-up-offer.js';

type Deps = Pick<Registry, 'identity' | 'links' | 'secondFactors' | 'strongAuthLinks' | 'accountLinks'>;

/**
 * GET /ui/login?handle= for an authorization whose acr_values the signed-in session does not
 * reach (docs/strong-authentication.md #14): the user proves the second factor on this page,
 * then the authorization resumes. Undefined when the browser has no such session (the sign-in
 * form serves then). Without a second factor the page says how to add one.
 */
export async function stepUpPage(
  deps: Deps,
  request: PageRequest,
  handle: string,
  pending: PendingAuthorization,
): Promise<PageResult | undefined> {
  const session = await findBrowserSession(deps, request.cookies);
  if (!session || satisfiesAcr(acrOf(session.amr), pending.acrRequired!)) return undefined;
  const methods = await stepUpMethods(deps, session.userId);
  if (!methods.totp && !methods.passkey) return noSecondFactorPage(deps, pending);
  return stepUpFormPage(deps, 200, { session, handle, clientName: pending.clientName, methods });
}

/** What the signed-in user can step up with (docs/strong-authentication.md #14, #21). */
export interface StepUpMethods {
  totp: boolean;
  passkey: boolean;
}

function noSecondFactorPage(deps: Deps, pending: PendingAuthorization): PageResult {
  return documentPage(deps.links, 403, {
    title: 'Two-step verification needed',
    content: html`<p>
        ${pending.clientName} asks for two-step verification, and your account has no authenticator app yet.
      </p>
      <p><a href="${deps.accountLinks.account()}">Set one up on your account page</a>, then try again.</p>`,
  });
}

/**
 * The step-up page: the authenticator app's code form when the user has one, and the passkey
 * button when they have a passkey (docs/strong-authentication.md #21). The passkey button sits
 * outside the one form and carries the handle and CSRF token itself.
 */
export function stepUpFormPage(
  deps: Deps,
  status: number,
  view: {
    session: BrowserSession;
    handle: string;
    clientName?: string;
    error?: string;
    passkeyError?: string;
    methods: StepUpMethods;
  },
): PageResult {
  const { methods } = view;
  const codeForm = methods.totp
    ? html`<form method="post" action="${deps.strongAuthLinks.stepUp()}">
        <input type="hidden" name="handle" value="${view.handle}" />
        <input type="hidden" name="csrf_token" value="${view.session.csrfToken}" />
        ${codeField(view.error)}
        <div class="actions"><button type="submit" class="primary">Verify</button></div>
      </form>`
    : html``;
  const passkeyOffer = methods.passkey
    ? passkeyStepUpOffer(deps.strongAuthLinks, {
        handle: view.handle,
        csrfToken: view.session.csrfToken,
        error: view.passkeyError,
      })
    : view.passkeyError !== undefined
      ? // A refusal still says so when the account has no passkey (left): same message for all.
        html`<p class="alert" role="alert">${view.passkeyError}</p>`
      : html``;
  return documentPage(deps.links, status, {
    title: 'Two-step verification',
    heading: 'Confirm it is you',
    content: html`<p>
        ${view.clientName === undefined ? 'This application' : view.clientName} asks for two-step
        verification. Signed in as <strong>${view.session.email}</strong>.
      </p>
      ${codeForm} ${passkeyOffer}`,
    ...(methods.passkey ? { scripts: passkeyScripts(deps.strongAuthLinks) } : {}),
  });
}

/**
 * POST /ui/login/step-up: the session, its CSRF token compared in constant time
 * (docs/decisions.md #17), then identity takes the code and strengthens the session; the
 * browser goes on to resume the authorization, which checks the acr again.
 */
export async function submitStepUp(deps: Deps, request: PageRequest): Promise<PageResult> {
  const session = await findBrowserSession(deps, request.cookies);
  if (!session) return signInRequiredPage(deps);
  const sent = request.form.get('csrf_token');
  if (sent === undefined || !constantTimeEqual(sent, session.csrfToken)) return csrfRefusal();
  const handle = request.form.get('handle') ?? '';
  if (!isHandleShaped(handle)) return expiredRequestPage(deps);
  try {
    await deps.secondFactors.stepUp({
      sessionToken: session.token,
      code: request.form.get('code') ?? '',
      origin: request.origin,
    });
  } catch (error) {
    if (error instanceof RateLimitedError) return tooManyAttemptsPage(deps);
    if (error instanceof InvalidCodeError || error instanceof ValidationError) {
      const methods = await stepUpMethods(deps, session.userId);
      return stepUpFormPage(deps, 401, { session, handle, error: WRONG_CODE, methods });
    }
    throw error;
  }
  return redirectPage(303, deps.links.resume(handle));
}

export async function stepUpMethods(
  deps: Pick<Registry, 'secondFactors'>,
  userId: string,
): Promise<StepUpMethods> {
  const factors = await deps.secondFactors.factors(userId);
  return { totp: factors.totp, passkey: factors.passkeys.length > 0 };
}
