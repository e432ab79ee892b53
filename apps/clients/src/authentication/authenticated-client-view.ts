import type { MessageInitShape } from '@bufbuild/protobuf';
import type { AuthenticatedClientSchema } from '@authz/proto/clients/v1/clients';
import type { AuthenticatableClient } from './authenticatable-client.js';

/** What the token endpoint needs to run a grant for this client. */
export function toAuthenticatedClientMessage(
  client: AuthenticatableClient,
  apiKeyId?: string,
): MessageInitShape<typeof AuthenticatedClientSchema> {
  return {
    id: client.id,
    clientId: client.clientId,
    grantTypes: client.grantTypes,
    scopes: client.scopes,
    audience: client.audience,
    isAgent: client.isAgent,
    agentScopeModes: client.agentScopeModes,
    tokenEndpointAuthMethod: client.tokenEndpointAuthMethod,
    source: client.source,
    redirectUris: client.redirectUris,
    requirePkce: client.requirePkce,
    name: client.name,
    ...(apiKeyId ? { apiKeyId } : {}),
    postLogoutRedirectUris: client.postLogoutRedirectUris,
    ...(client.backchannelLogoutUri === null ? {} : { backchannelLogoutUri: client.backchannelLogoutUri }),
    backchannelLogoutSessionRequired: client.backchannelLogoutSessionRequired,
    requirePushedAuthorizationRequests: client.requirePushedAuthorizationRequests,
    dpopBoundAccessTokens: client.dpopBoundAccessTokens,
    idTokenSignedResponseAlg: client.idTokenSignedResponseAlg,
  };
}
