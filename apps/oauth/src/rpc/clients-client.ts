import type {
  AuthenticatedClient as WireAuthenticatedClient,
  ClientsService,
} from '@authz/proto/clients/v1/clients';
import { InternalError } from '@authz/shared/errors';
import type { ServiceClient } from '@authz/shared/grpc';
import {
  resolveAudience,
  type AuthenticatedClient,
} from '../protocol/client-authentication/authenticated-client.js';
import type { ClientsPort } from '../protocol/client-authentication/clients-port.js';

/** ClientsPort over the clients service's gRPC contract; its InvalidClientErrors arrive rebuilt. */
export function clientsOverGrpc(client: ServiceClient<typeof ClientsService>): ClientsPort {
  return {
    async authenticateClient(credentials) {
      const response = await client.authenticateClient(credentials);
      return toAuthenticatedClient(response.client);
    },
    async recordClientUsage(uses) {
      await client.recordClientUsage({
        uses: uses.map(({ id, apiKeyId, usedAt }) => ({ id, apiKeyId, usedAt: BigInt(usedAt) })),
      });
    },
    async resolveClient(clientId) {
      const response = await client.resolveClient({ clientId });
      return toAuthenticatedClient(response.client);
    },
  };
}

function toAuthenticatedClient(client: WireAuthenticatedClient | undefined): AuthenticatedClient {
  if (!client) throw new InternalError({ detail: 'clients answered without a client' });
  return {
    id: client.id,
    clientId: client.clientId,
    name: client.name,
    source: client.source,
    method: client.tokenEndpointAuthMethod,
    ...(client.apiKeyId ? { apiKeyId: client.apiKeyId } : {}),
    grantTypes: client.grantTypes,
    scopes: client.scopes,
    audienceList: client.audience,
    audience: resolveAudience(client.audience, client.clientId),
    isAgent: client.isAgent,
    agentScopeModes: client.agentScopeModes,
    redirectUris: client.redirectUris,
    requirePkce: client.requirePkce,
    postLogoutRedirectUris: client.postLogoutRedirectUris,
    ...(client.backchannelLogoutUri ? { backchannelLogoutUri: client.backchannelLogoutUri } : {}),
    backchannelLogoutSessionRequired: client.backchannelLogoutSessionRequired,
    // An empty value (a clients service without the field) means the default (interface.md 2.5).
    idTokenSignedResponseAlg: client.idTokenSignedResponseAlg === 'RS256' ? 'RS256' : 'EdDSA',
    requirePushedAuthorizationRequests: client.requirePushedAuthorizationRequests,
    dpopBoundAccessTokens: client.dpopBoundAccessTokens,
  };
}
