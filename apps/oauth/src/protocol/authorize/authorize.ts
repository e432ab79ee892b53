import { InteractionRequiredError, LoginRequiredError, OAuthError } from '@authz/shared/errors';
import type { AuthenticatedClient } from '../client-authentication/authenticated-client.js';
import type { RequestOrigin } from '../identity-port.js';
import type { Registry } from '../../registry.js';
import type { RawParameter } from '../token/token-parameters.js';
import {
  errorPage,
  redirectErrorToClient,
  redirectToHostedPage,
  type AuthorizationOutcome,
} from './authorization-outcome.js';
import { readAuthorizationParameters, type AuthorizationParameters } from './authorization-parameters.js';
import type { AuthorizationRequest } from './authorization-request.js';
import { findBrowserSession, isLoginNeeded, isStepUpNeeded } from './browser-session.js';
import { checkIdTokenHint } from './check-id-token-hint.js';
import { checkRedirectUri, type CheckedRedirectUri } from './check-redirect-uri.js';
import { continueAuthorization } from './continue-authorization.js';
import { mayRedirectErrors } from './may-redirect-errors.js';
import { resolveClient } from './resolve-client.js';
import {
  checkPushedRequired,
  resolvePushedAuthorization,
  type ResolvedAuthorizationParameters,
} from '../par/resolve-pushed-authorization.js';
import { redirectTargetOf, validateAuthorizationRequest } from './validate-authorization-request.js';

export interface AuthorizeRequest {
  /** The query (GET) or form (POST) as sent. */
  parameters: readonly RawParameter[];
  /** The __Host-service_session cookie value, when the browser sent one. */
  sessionToken?: string;
  origin: RequestOrigin;
}

export type AuthorizeDeps = Pick<
  Registry,
  | 'config'
  | 'keys'
  | 'clients'
  | 'identity'
  | 'consents'
  | 'consentPrompts'
  | 'pendingAuthorizations'
  | 'authorizationCodes'
  | 'pushedAuthorizations'
>;

/**
 * interface.md 4.3 GET/POST /oauth/authorize (RFC 6749 section 4.1.1, OIDC Core 3.1.2): the client
 * and redirect URI are trusted first, and until then every failure is an error page; after
 * that failures go back to the client, unless nobody vouches for it (RFC 9700 section 4.11.2).
 * Then sign-in, consent, and the code (docs/authorization.md).
 */
export async function authorize(
  deps: AuthorizeDeps,
  request: AuthorizeRequest,
): Promise<AuthorizationOutcome> {
  let resolved: ResolvedAuthorizationParameters;
  try {
    // RFC 9126 section 4: a pushed request replaces whatever else was sent.
    resolved = await resolvePushedAuthorization(deps, request.parameters);
  } catch (error) {
    if (error instanceof OAuthError) return errorPage(error);
    throw error;
  }
  const parameters = readAuthorizationParameters(resolved.parameters);
  let trusted: { client: AuthenticatedClient; redirect: CheckedRedirectUri };
  try {
    const client = await resolveClient(deps, parameters);
    trusted = { client, redirect: checkRedirectUri(client, parameters) };
  } catch (error) {
    if (error instanceof OAuthError) return errorPage(error);
    throw error;
  }
  try {
    checkPushedRequired(deps, trusted.client, resolved.pushed);
    return await authorizeTrusted(deps, trusted.client, trusted.redirect, parameters, request.sessionToken);
  } catch (error) {
    if (error instanceof OAuthError) {
      if (!mayRedirectErrors(trusted.client)) return errorPage(error);
      return redirectErrorToClient(deps.config.issuer, redirectTargetOf(trusted.redirect, parameters), error);
    }
    throw error;
  }
}

async function authorizeTrusted(
  deps: AuthorizeDeps,
  client: AuthenticatedClient,
  redirect: CheckedRedirectUri,
  parameters: AuthorizationParameters,
  sessionToken: string | undefined,
): Promise<AuthorizationOutcome> {
  const request = validateAuthorizationRequest(client, redirect, parameters);
  const hint = await checkIdTokenHint(deps, parameters.values, client.clientId);
  const session = await findBrowserSession(deps, sessionToken);
  const now = Math.floor(Date.now() / 1000);
  // OIDC Core 3.1.2.2: a session of another user than the hint names does not answer for it.
  const otherUser = hint !== undefined && session !== undefined && session.user.id !== hint.sub;
  if (!session || otherUser || isLoginNeeded(request, session, now)) {
    if (request.prompt.includes('none')) {
      throw new LoginRequiredError({ message: 'The user must sign in' });
    }
    return redirectToLogin(deps, request, now, otherUser);
  }
  if (isStepUpNeeded(request, session)) {
    // OIDC Core 3.1.2.6: signed in, but only the user can add the missing factor.
    if (request.prompt.includes('none')) {
      throw new InteractionRequiredError({ message: 'The user must complete a second authentication step' });
    }
    return redirectToLogin(deps, request, now);
  }
  return continueAuthorization(deps, request, session);
}

// interface.md 2.6 and 3: the request waits behind a single-use handle while the user signs in.
async function redirectToLogin(
  deps: AuthorizeDeps,
  request: AuthorizationRequest,
  now: number,
  otherUser = false,
): Promise<AuthorizationOutcome> {
  const handle = await deps.pendingAuthorizations.create({
    request,
    createdAt: now,
    freshLoginRequired: request.prompt.includes('login') || request.maxAge !== undefined || otherUser,
  });
  return redirectToHostedPage(deps.config.issuer, 'login', handle);
}
