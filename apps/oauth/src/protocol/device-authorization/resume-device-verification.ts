import { DEVICE_PAGE_PATHS } from '@authz/shared/protocol';
import { NotFoundError } from '@authz/shared/errors';
import { redirectToHostedPage, type AuthorizationOutcome } from '../authorize/authorization-outcome.js';
import { findBrowserSession } from '../authorize/browser-session.js';
import type { Registry } from '../../registry.js';

type Deps = Pick<Registry, 'config' | 'identity' | 'deviceVerifications' | 'deviceConsentPrompts'>;

/**
 * /ui/resume/{handle} for a device verification (docs/device-grant.md #7): without a session,
 * to sign-in with the same handle, not consumed; with one, the handle is consumed and the
 * device's consent screen gets a prompt bound to that session. Undefined when the handle is
 * not a device verification's.
 */
export async function resumeDeviceVerification(
  deps: Deps,
  handle: string,
  sessionToken: string | undefined,
): Promise<AuthorizationOutcome | undefined> {
  if (!(await deps.deviceVerifications.peek(handle))) return undefined;
  const session = await findBrowserSession(deps, sessionToken);
  if (!session) return redirectToHostedPage(deps.config.issuer, 'login', handle);
  const verification = await deps.deviceVerifications.take(handle);
  if (!verification) throw new NotFoundError({ detail: 'device verification taken concurrently' });
  const prompt = await deps.deviceConsentPrompts.create({
    deviceCodeHash: verification.deviceCodeHash,
    userId: session.user.id,
    sessionId: session.sessionId,
    authTime: session.authTime,
    amr: session.amr,
  });
  const query = new URLSearchParams({ handle: prompt }).toString();
  return { redirectTo: `${deps.config.issuer}${DEVICE_PAGE_PATHS.consent}?${query}` };
}

/** The sign-in page's view of a pending authorization, here of a device verification. */
export interface DeviceVerificationView {
  clientId: string;
  clientName: string;
  scopes: string[];
  loginRequired: boolean;
  /** It ends on our own pages. */
  redirectOrigin: string;
}

/** The sign-in page's view of a device verification; consumes nothing. */
export async function getPendingDeviceVerification(
  deps: Pick<Registry, 'config' | 'deviceVerifications'>,
  handle: string,
): Promise<DeviceVerificationView | undefined> {
  const verification = await deps.deviceVerifications.peek(handle);
  if (!verification) return undefined;
  return {
    clientId: verification.clientId,
    clientName: verification.clientName,
    scopes: [],
    loginRequired: false,
    redirectOrigin: new URL(deps.config.issuer).origin,
  };
}
