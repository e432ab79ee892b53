import { NotFoundError, OAuthError } from '@authz/shared/errors';
import type { Registry } from '../../registry.js';
import {
  redirectErrorToClient,
  redirectToHostedPage,
  type AuthorizationOutcome,
} from './authorization-outcome.js';
import { findBrowserSession, isStepUpNeeded } from './browser-session.js';
import { continueAuthorization } from './continue-authorization.js';
import type { PendingAuthorization } from './handle-store.js';
import {
  getPendingDeviceVerification,
  resumeDeviceVerification,
} from '../device-authorization/resume-device-verification.js';

export interface ResumeAuthorizationRequest {
  handle: string;
  sessionToken?: string;
}

export type ResumeDeps = Pick<
  Registry,
  | 'config'
  | 'identity'
  | 'consents'
  | 'consentPrompts'
  | 'pendingAuthorizations'
  | 'authorizationCodes'
  | 'deviceVerifications'
  | 'deviceConsentPrompts'
>;

/**
 * interface.md 3 GET /ui/resume/{handle}: without a session, or with one older than the pending
 * authorization demands (prompt=login, max_age), back to sign-in with the same handle, not
 * consumed. Otherwise the handle is consumed, atomically, and the authorization continues.
 */
export async function resumeAuthorization(
  deps: ResumeDeps,
  { handle, sessionToken }: ResumeAuthorizationRequest,
): Promise<AuthorizationOutcome> {
  const pending = await deps.pendingAuthorizations.peek(handle);
  if (!pending) {
    // docs/device-grant.md #7: a user code entered on /ui/device resumes the same way.
    const device = await resumeDeviceVerification(deps, handle, sessionToken);
    if (device) return device;
    throw notFound();
  }
  const session = await findBrowserSession(deps, sessionToken);
  if (!session || !isFreshEnough(pending, session.authTime) || isStepUpNeeded(pending.request, session)) {
    return redirectToHostedPage(deps.config.issuer, 'login', handle);
  }
  const taken = await deps.pendingAuthorizations.take(handle);
  if (!taken) throw notFound();
  try {
    return await continueAuthorization(deps, taken.request, session);
  } catch (error) {
    if (error instanceof OAuthError) return redirectErrorToClient(deps.config.issuer, taken.request, error);
    throw error;
  }
}

export interface PendingAuthorizationView {
  clientId: string;
  clientName: string;
  scopes: string[];
  loginRequired: boolean;
  /** The acr the session must reach first (docs/strong-authentication.md #14). */
  acrRequired?: string;
  /** Where the flow ends: the sign-in form's CSP form-action must allow it. */
  redirectOrigin: string;
}

/** The sign-in page's view of a pending authorization; consumes nothing. */
export async function getPendingAuthorization(
  deps: Pick<Registry, 'config' | 'pendingAuthorizations' | 'deviceVerifications'>,
  handle: string,
): Promise<PendingAuthorizationView> {
  const pending = await deps.pendingAuthorizations.peek(handle);
  if (!pending) {
    const device = await getPendingDeviceVerification(deps, handle);
    if (device) return device;
    throw notFound();
  }
  const { clientId, clientName, scope, redirectUri } = pending.request;
  return {
    clientId,
    clientName,
    scopes: scope,
    loginRequired: pending.freshLoginRequired,
    ...(pending.request.acrRequired === undefined ? {} : { acrRequired: pending.request.acrRequired }),
    redirectOrigin: new URL(redirectUri).origin,
  };
}

// OIDC Core 3.1.2.1 (prompt=login, max_age): only a sign-in from this authorization on counts.
function isFreshEnough(pending: PendingAuthorization, authTime: number): boolean {
  return !pending.freshLoginRequired || authTime >= pending.createdAt;
}

function notFound(): NotFoundError {
  return new NotFoundError({ detail: 'unknown, used or expired pending authorization' });
}
