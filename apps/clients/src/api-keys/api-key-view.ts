import type { MessageInitShape } from '@bufbuild/protobuf';
import type { ApiKeySchema } from '@authz/proto/clients/v1/clients';
import type { ApiKey } from '../generated/prisma/client.js';

/** interface.md 2.4 view, masked: the OAuth client id, never the hash or the key. */
export function toApiKeyMessage(key: ApiKey, oauthClientId: string): MessageInitShape<typeof ApiKeySchema> {
  return {
    id: key.id,
    clientId: oauthClientId,
    name: key.name,
    prefix: key.prefix,
    last4: key.last4,
    createdAt: BigInt(key.createdAt.getTime()),
    ...(key.lastUsedAt ? { lastUsedAt: BigInt(key.lastUsedAt.getTime()) } : {}),
    ...(key.revokedAt ? { revokedAt: BigInt(key.revokedAt.getTime()) } : {}),
  };
}
