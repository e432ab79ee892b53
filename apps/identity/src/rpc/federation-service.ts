import type { FederationService } from '@authz/proto/identity/v1/federation';
import type { ServiceImplementation } from '@authz/shared/grpc';
import { completeUpstreamFlow } from '../federation/complete-upstream-flow.js';
import { listFederatedIdentities, unlinkFederatedIdentity } from '../federation/linked-identities.js';
import { startUpstreamFlow } from '../federation/start-upstream-flow.js';
import type { Registry } from '../registry.js';

/** The gRPC face of upstream sign-in (interface.md 4.14): thin translations (docs/conventions.md #2). */
export function federationServiceImplementation(
  registry: Registry,
): ServiceImplementation<typeof FederationService> {
  return {
    listUpstreamProviders() {
      return Promise.resolve({
        providers: registry.upstreamProviders.map(({ id, displayName }) => ({ id, displayName })),
      });
    },
    startUpstreamFlow: (request) => startUpstreamFlow(registry, request),
    completeUpstreamFlow: (request) => completeUpstreamFlow(registry, request),
    listFederatedIdentities: (request) => listFederatedIdentities(registry, request.userId),
    async unlinkFederatedIdentity(request) {
      await unlinkFederatedIdentity(registry, request);
      return {};
    },
  };
}
