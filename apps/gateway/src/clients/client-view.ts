import type { ApiKey, Client } from '@authz/proto/clients/v1/clients';

/** interface.md 2.2 Client: epoch-millisecond timestamps, description and lastUsedAt null when unset. */
export function toClientView(client: Client) {
  return {
    id: client.id,
    clientId: client.clientId,
    name: client.name,
    description: client.description ?? null,
    redirectUris: client.redirectUris,
    scopes: client.scopes,
    grantTypes: client.grantTypes,
    responseTypes: client.responseTypes,
    tokenEndpointAuthMethod: client.tokenEndpointAuthMethod,
    enabled: client.enabled,
    requirePkce: client.requirePkce,
    createdAt: Number(client.createdAt),
    updatedAt: Number(client.updatedAt),
    lastUsedAt: client.lastUsedAt === undefined ? null : Number(client.lastUsedAt),
    postLogoutRedirectUris: client.postLogoutRedirectUris,
    backchannelLogoutUri: client.backchannelLogoutUri ?? null,
    backchannelLogoutSessionRequired: client.backchannelLogoutSessionRequired,
    idTokenSignedResponseAlg: client.idTokenSignedResponseAlg,
    requirePushedAuthorizationRequests: client.requirePushedAuthorizationRequests,
    dpopBoundAccessTokens: client.dpopBoundAccessTokens,
  };
}

/** interface.md 2.4 ApiKey, masked (the plaintext `key` is added only by the create route). */
export function toApiKeyView(apiKey: ApiKey) {
  return {
    id: apiKey.id,
    clientId: apiKey.clientId,
    name: apiKey.name,
    prefix: apiKey.prefix,
    last4: apiKey.last4,
    createdAt: Number(apiKey.createdAt),
    lastUsedAt: apiKey.lastUsedAt === undefined ? null : Number(apiKey.lastUsedAt),
    revokedAt: apiKey.revokedAt === undefined ? null : Number(apiKey.revokedAt),
  };
}
