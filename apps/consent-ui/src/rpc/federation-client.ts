import {
  UpstreamFlowOutcome,
  UpstreamFlowPurpose,
  type FederationService,
} from '@authz/proto/identity/v1/federation';
import { InternalError } from '@authz/shared/errors';
import type { ServiceClient } from '@authz/shared/grpc';
import type { FederationPort } from '../pages/federation/federation-port.js';

/** FederationPort over identity's FederationService; its AppErrors arrive rebuilt. */
export function federationOverGrpc(client: ServiceClient<typeof FederationService>): FederationPort {
  return {
    async listProviders() {
      const { providers } = await client.listUpstreamProviders({});
      return providers.map(({ id, displayName }) => ({ id, displayName }));
    },
    async start(request) {
      const started = await client.startUpstreamFlow({
        providerId: request.providerId,
        ...('linkUserId' in request
          ? { purpose: UpstreamFlowPurpose.LINK, userId: request.linkUserId }
          : {
              purpose: UpstreamFlowPurpose.SIGN_IN,
              ...(request.pendingHandle ? { pendingHandle: request.pendingHandle } : {}),
            }),
      });
      return {
        authorizationUrl: started.authorizationUrl,
        binder: started.binder,
        expiresAt: Number(started.expiresAt),
      };
    },
    async complete(request) {
      const completed = await client.completeUpstreamFlow(request);
      switch (completed.outcome) {
        case UpstreamFlowOutcome.SIGNED_IN:
          if (!completed.sessionToken) throw new InternalError({ detail: 'signed in without a session' });
          return {
            outcome: 'signed_in',
            sessionToken: completed.sessionToken,
            ...(completed.pendingHandle ? { pendingHandle: completed.pendingHandle } : {}),
          };
        case UpstreamFlowOutcome.LINKED:
          return { outcome: 'linked' };
        case UpstreamFlowOutcome.CONFLICT:
          return { outcome: 'conflict' };
        default:
          throw new InternalError({ detail: 'unknown upstream flow outcome' });
      }
    },
    async listLinked(userId) {
      const { identities, signInMethods } = await client.listFederatedIdentities({ userId });
      return {
        signInMethods,
        identities: identities.map((identity) => ({
          id: identity.id,
          providerId: identity.providerId,
          displayName: identity.displayName,
          createdAt: Number(identity.createdAt),
        })),
      };
    },
    async unlink(request) {
      await client.unlinkFederatedIdentity(request);
    },
  };
}
