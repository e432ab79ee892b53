import type { MessageInitShape } from '@bufbuild/protobuf';
import type { RegisterClientResponseSchema } from '@authz/proto/clients/v1/clients';
import type { Registration } from './register-client.js';

/** RFC 7591 section 3.2.1: the credentials and the metadata as registered. */
export function toRegistrationMessage({
  client,
  clientSecret,
  clientName,
}: Registration): MessageInitShape<typeof RegisterClientResponseSchema> {
  return {
    clientId: client.clientId,
    ...(clientSecret ? { clientSecret } : {}),
    clientIdIssuedAt: BigInt(Math.floor(client.createdAt.getTime() / 1000)),
    redirectUris: client.redirectUris,
    tokenEndpointAuthMethod: client.tokenEndpointAuthMethod,
    grantTypes: client.grantTypes,
    responseTypes: client.responseTypes,
    ...(clientName !== undefined ? { clientName } : {}),
    ...(client.scopes.length > 0 ? { scope: client.scopes.join(' ') } : {}),
    ...(client.jwks !== null ? { jwks: JSON.stringify(client.jwks) } : {}),
    ...(client.jwksUri !== null ? { jwksUri: client.jwksUri } : {}),
    isAgent: client.isAgent,
    ...(client.agentScopeModes.length > 0 ? { agentScopeModes: client.agentScopeModes.join(' ') } : {}),
    postLogoutRedirectUris: client.postLogoutRedirectUris,
    ...(client.backchannelLogoutUri === null ? {} : { backchannelLogoutUri: client.backchannelLogoutUri }),
    backchannelLogoutSessionRequired: client.backchannelLogoutSessionRequired,
    requirePushedAuthorizationRequests: client.requirePushedAuthorizationRequests,
    dpopBoundAccessTokens: client.dpopBoundAccessTokens,
    idTokenSignedResponseAlg: client.idTokenSignedResponseAlg,
  };
}
