import type {
  AuthorizationOutcome as WireOutcome,
  AuthorizationService,
  LogoutOutcome as WireLogoutOutcome,
} from '@authz/proto/oauth/v1/oauth';
import { InternalError } from '@authz/shared/errors';
import type { ServiceClient } from '@authz/shared/grpc';
import type {
  AuthorizationOutcome,
  AuthorizationPort,
  LogoutOutcome,
} from '../pages/authorization/authorization-port.js';

/** AuthorizationPort over the oauth service's gRPC contract; its AppErrors arrive rebuilt. */
export function authorizationOverGrpc(client: ServiceClient<typeof AuthorizationService>): AuthorizationPort {
  return {
    async getPendingAuthorization(handle) {
      const { clientName, loginRequired, redirectOrigin, acrRequired } = await client.getPendingAuthorization(
        {
          handle,
        },
      );
      return {
        clientName,
        loginRequired,
        redirectOrigin,
        ...(acrRequired === undefined ? {} : { acrRequired }),
      };
    },
    async resumeAuthorization({ handle, sessionToken, origin }) {
      const response = await client.resumeAuthorization({
        handle,
        ...(sessionToken === undefined ? {} : { sessionToken }),
        origin,
      });
      return fromWire(response.outcome);
    },
    async getConsentPrompt({ handle, sessionToken }) {
      const response = await client.getConsentPrompt({ handle, sessionToken });
      const { clientId, clientName, scopes, newScopes, redirectOrigin, clientSource, resources } = response;
      return { clientId, clientName, scopes, newScopes, redirectOrigin, clientSource, resources };
    },
    async decideConsent(request) {
      return fromWire((await client.decideConsent(request)).outcome);
    },
    async getLogoutPrompt(request) {
      const { clientName, redirectOrigin } = await client.getLogoutPrompt(request);
      return { clientName, redirectOrigin };
    },
    async confirmLogout(request) {
      return logoutFromWire((await client.confirmLogout(request)).outcome);
    },
  };
}

function logoutFromWire(outcome: WireLogoutOutcome | undefined): LogoutOutcome {
  const next = outcome?.next;
  const clearSessionCookie = outcome?.clearSessionCookie ?? false;
  if (next?.case === 'redirectTo') return { kind: 'redirect', location: next.value, clearSessionCookie };
  if (next?.case === 'errorPage') {
    const { error, errorDescription: description } = next.value;
    return { kind: 'error-page', error, description, clearSessionCookie };
  }
  throw new InternalError({ detail: 'oauth answered without a logout outcome' });
}

function fromWire(outcome: WireOutcome | undefined): AuthorizationOutcome {
  const next = outcome?.next;
  if (next?.case === 'redirectTo') return { kind: 'redirect', location: next.value };
  if (next?.case === 'errorPage') {
    return { kind: 'error-page', error: next.value.error, description: next.value.errorDescription };
  }
  throw new InternalError({ detail: 'oauth answered without an outcome' });
}
