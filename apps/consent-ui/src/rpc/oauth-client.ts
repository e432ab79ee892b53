import type { AuthorizationOutcome as WireOutcome, AuthorizationService } from '@authz/proto/oauth/v1/oauth';
import { InternalError } from '@authz/shared/errors';
import type { ServiceClient } from '@authz/shared/grpc';
import type { AuthorizationOutcome, AuthorizationPort } from '../pages/authorization/authorization-port.js';

/** AuthorizationPort over the oauth service's gRPC contract; its AppErrors arrive rebuilt. */
export function authorizationOverGrpc(client: ServiceClient<typeof AuthorizationService>): AuthorizationPort {
  return {
    async getPendingAuthorization(handle) {
      const { clientName, loginRequired, redirectOrigin } = await client.getPendingAuthorization({ handle });
      return { clientName, loginRequired, redirectOrigin };
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
  };
}

function fromWire(outcome: WireOutcome | undefined): AuthorizationOutcome {
  const next = outcome?.next;
  if (next?.case === 'redirectTo') return { kind: 'redirect', location: next.value };
  if (next?.case === 'errorPage') {
    return { kind: 'error-page', error: next.value.error, description: next.value.errorDescription };
  }
  throw new InternalError({ detail: 'oauth answered without an outcome' });
}
