import { AccessDeniedError, NotFoundError } from '@authz/shared/errors';
import type { BrowserSession } from '../identity-port.js';
import type { Registry } from '../../registry.js';
import { redirectErrorToClient, type AuthorizationOutcome } from './authorization-outcome.js';
import { requireBrowserSession } from './browser-session.js';
import type { ConsentPrompt } from './handle-store.js';
import { issueAuthorizationCode } from './issue-authorization-code.js';

export interface ConsentPromptView {
  clientId: string;
  clientName: string;
  /** Everything the client asks for. */
  scopes: string[];
  /** Those not consented to before. */
  newScopes: string[];
  /** Where the decision's redirect ends: the page's CSP form-action must allow it. */
  redirectOrigin: string;
  /** pre_registered, dynamic or cimd; '' when not known (docs/hosted-pages.md #24). */
  clientSource: string;
  /** The RFC 8707 resources the access will be for. */
  resources: string[];
}

export interface ConsentDecision {
  handle: string;
  sessionToken: string;
  allow: boolean;
}

type Deps = Pick<Registry, 'config' | 'identity' | 'consents' | 'consentPrompts' | 'authorizationCodes'>;

/** GET /ui/consent: what the consent screen shows; consumes nothing. */
export async function getConsentPrompt(
  deps: Deps,
  handle: string,
  sessionToken: string,
): Promise<ConsentPromptView> {
  const session = await requireBrowserSession(deps, sessionToken);
  const prompt = checkBinding(await deps.consentPrompts.peek(handle), session);
  const { clientId, clientName, scope, redirectUri, clientSource, resources } = prompt.request;
  const consent = await deps.consents.findLive(session.user.id, clientId);
  const newScopes = scope.filter((value) => !consent?.scopes.includes(value));
  return {
    clientId,
    clientName,
    scopes: scope,
    newScopes,
    redirectOrigin: new URL(redirectUri).origin,
    clientSource: clientSource ?? '',
    resources,
  };
}

/**
 * POST /ui/consent, after the caller checked CSRF: consumes the prompt atomically. Allow
 * records the consent (the union of old and new scopes) and issues a code under it; Deny
 * sends access_denied to the client (RFC 6749 section 4.1.2.1).
 */
export async function decideConsent(deps: Deps, decision: ConsentDecision): Promise<AuthorizationOutcome> {
  const session = await requireBrowserSession(deps, decision.sessionToken);
  checkBinding(await deps.consentPrompts.peek(decision.handle), session);
  const prompt = await deps.consentPrompts.take(decision.handle);
  if (!prompt) throw notFound('consent prompt taken concurrently');
  const { request } = prompt;
  if (!decision.allow) {
    const denied = new AccessDeniedError({ message: 'The user denied the request' });
    return redirectErrorToClient(deps.config.issuer, request, denied);
  }
  const consent = await deps.consents.grant({
    userId: prompt.userId,
    clientId: request.clientId,
    clientName: request.clientName,
    scopes: request.scope,
    grantedAt: new Date(),
  });
  return issueAuthorizationCode(deps, request, {
    userId: prompt.userId,
    sessionId: prompt.sessionId,
    authTime: prompt.authTime,
    amr: prompt.amr ?? [],
    consentId: consent.id,
  });
}

// docs/authorization.md #9: a prompt answers only the browser session it was shown to; any
// other reads as unknown, so a handle reveals nothing to another user.
function checkBinding(prompt: ConsentPrompt | undefined, session: BrowserSession): ConsentPrompt {
  if (!prompt) throw notFound('unknown, used or expired consent prompt');
  if (prompt.userId !== session.user.id || prompt.sessionId !== session.sessionId) {
    throw notFound('consent prompt of another session');
  }
  return prompt;
}

function notFound(detail: string): NotFoundError {
  return new NotFoundError({ detail });
}
