import type { MessageInitShape } from '@bufbuild/protobuf';
import type { ClientSchema } from '@authz/proto/clients/v1/clients';
import type { Client } from '../generated/prisma/client.js';

/** interface.md 2.2 view: epoch-millisecond timestamps; never the secret hash or stored-only fields. */
export function toClientMessage(client: Client): MessageInitShape<typeof ClientSchema> {
  return {
    id: client.id,
    clientId: client.clientId,
    name: client.name,
    ...(client.description === null ? {} : { description: client.description }),
    redirectUris: client.redirectUris,
    scopes: client.scopes,
    grantTypes: client.grantTypes,
    responseTypes: client.responseTypes,
    tokenEndpointAuthMethod: client.tokenEndpointAuthMethod,
    enabled: client.enabled,
    requirePkce: client.requirePkce,
    createdAt: BigInt(client.createdAt.getTime()),
    updatedAt: BigInt(client.updatedAt.getTime()),
    ...(client.lastUsedAt ? { lastUsedAt: BigInt(client.lastUsedAt.getTime()) } : {}),
    postLogoutRedirectUris: client.postLogoutRedirectUris,
    ...(client.backchannelLogoutUri === null ? {} : { backchannelLogoutUri: client.backchannelLogoutUri }),
    backchannelLogoutSessionRequired: client.backchannelLogoutSessionRequired,
    requirePushedAuthorizationRequests: client.requirePushedAuthorizationRequests,
    dpopBoundAccessTokens: client.dpopBoundAccessTokens,
    idTokenSignedResponseAlg: client.idTokenSignedResponseAlg,
  };
}
