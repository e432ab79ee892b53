import { NotFoundError } from '@authz/shared/errors';
import { requireBrowserSession } from '../authorize/browser-session.js';
import type { BrowserSession } from '../identity-port.js';
import type { Registry } from '../../registry.js';
import { parseScope } from '../scope/scope.js';
import type { StoredDeviceGrant } from './device-grant-store.js';
import type { DeviceConsentPrompt } from './device-verification.js';

type Deps = Pick<Registry, 'identity' | 'consents' | 'deviceGrants' | 'deviceConsentPrompts'>;

/** What the device's consent screen shows (interface.md 4.13). */
export interface DeviceConsentView {
  clientId: string;
  clientName: string;
  /** pre_registered, dynamic or cimd (docs/hosted-pages.md #24). */
  clientSource: string;
  scopes: string[];
}

/** GET /ui/device/consent: consumes nothing. NotFoundError for a handle of another session. */
export async function getDeviceConsentPrompt(
  deps: Deps,
  handle: string,
  sessionToken: string,
): Promise<DeviceConsentView> {
  const session = await requireBrowserSession(deps, sessionToken);
  const prompt = checkBinding(await deps.deviceConsentPrompts.peek(handle), session);
  const grant = await undecidedGrant(deps, prompt);
  return {
    clientId: grant.clientId,
    clientName: grant.clientName,
    clientSource: grant.clientSource,
    scopes: parseScope(grant.scope),
  };
}

/**
 * POST /ui/device/consent, after the caller checked CSRF: consumes the prompt. Allow records
 * the consent as the consent screen does and approves the device's grant; Deny denies it, so
 * the device is told access_denied (RFC 8628 section 3.5). Returns whether it was approved.
 */
export async function decideDeviceConsent(
  deps: Deps,
  decision: { handle: string; sessionToken: string; allow: boolean },
): Promise<{ approved: boolean }> {
  const session = await requireBrowserSession(deps, decision.sessionToken);
  checkBinding(await deps.deviceConsentPrompts.peek(decision.handle), session);
  const prompt = await deps.deviceConsentPrompts.take(decision.handle);
  if (!prompt) throw notFound('device consent prompt taken concurrently');
  const grant = await undecidedGrant(deps, prompt);
  if (!decision.allow) {
    if (!(await deps.deviceGrants.decide(grant.deviceCodeHash, { denied: true }))) throw decided();
    return { approved: false };
  }
  const consent = await deps.consents.grant({
    userId: prompt.userId,
    clientId: grant.clientId,
    clientName: grant.clientName,
    scopes: parseScope(grant.scope),
    grantedAt: new Date(),
  });
  const approval = {
    userId: prompt.userId,
    sessionId: prompt.sessionId,
    authTime: prompt.authTime,
    amr: prompt.amr,
    consentId: consent.id,
  };
  if (!(await deps.deviceGrants.decide(grant.deviceCodeHash, { approval }))) throw decided();
  return { approved: true };
}

// docs/authorization.md #9, as for the code flow's consent: only the session that was shown it.
function checkBinding(prompt: DeviceConsentPrompt | undefined, session: BrowserSession): DeviceConsentPrompt {
  if (!prompt) throw notFound('unknown, used or expired device consent prompt');
  if (prompt.userId !== session.user.id || prompt.sessionId !== session.sessionId) {
    throw notFound('device consent prompt of another session');
  }
  return prompt;
}

async function undecidedGrant(deps: Deps, prompt: DeviceConsentPrompt): Promise<StoredDeviceGrant> {
  const grant = await deps.deviceGrants.findByDeviceCode(prompt.deviceCodeHash);
  if (!grant || grant.status !== 'pending' || grant.expiresAt <= Date.now()) throw decided();
  return grant;
}

function decided(): NotFoundError {
  return notFound('device authorization decided already or expired');
}

function notFound(detail: string): NotFoundError {
  return new NotFoundError({ detail });
}
