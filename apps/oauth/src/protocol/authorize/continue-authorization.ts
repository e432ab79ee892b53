import { ConsentRequiredError } from '@authz/shared/errors';
import type { StoredConsent } from '../consent/consent-store.js';
import type { BrowserSession } from '../identity-port.js';
import type { Registry } from '../../registry.js';
import { redirectToHostedPage, type AuthorizationOutcome } from './authorization-outcome.js';
import type { AuthorizationRequest } from './authorization-request.js';
import { issueAuthorizationCode } from './issue-authorization-code.js';

export type ContinueDeps = Pick<Registry, 'config' | 'consents' | 'consentPrompts' | 'authorizationCodes'>;

/**
 * interface.md 4.3 once the user is signed in: consent is needed without a live consent for the
 * client, when a requested scope is outside it, or with prompt=consent (OIDC Core 3.1.2.1).
 * Then the consent screen gets a prompt bound to this session (prompt=none: consent_required);
 * otherwise the code goes to the client.
 */
export async function continueAuthorization(
  deps: ContinueDeps,
  request: AuthorizationRequest,
  session: BrowserSession,
): Promise<AuthorizationOutcome> {
  const consent = await deps.consents.findLive(session.user.id, request.clientId);
  if (!consent || isConsentNeeded(request, consent)) {
    if (request.prompt.includes('none')) {
      throw new ConsentRequiredError({ message: 'The user has not consented to this request' });
    }
    const handle = await deps.consentPrompts.create({
      request,
      userId: session.user.id,
      sessionId: session.sessionId,
      authTime: session.authTime,
      amr: session.amr,
    });
    return redirectToHostedPage(deps.config.issuer, 'consent', handle);
  }
  return issueAuthorizationCode(deps, request, {
    userId: session.user.id,
    sessionId: session.sessionId,
    authTime: session.authTime,
    amr: session.amr,
    consentId: consent.id,
  });
}

function isConsentNeeded(request: AuthorizationRequest, consent: StoredConsent): boolean {
  if (request.prompt.includes('consent')) return true;
  return !request.scope.every((scope) => consent.scopes.includes(scope));
}
