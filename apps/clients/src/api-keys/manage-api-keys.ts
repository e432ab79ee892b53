import type { ClientRef } from '@authz/proto/clients/v1/clients';
import { keyedHash, randomHexToken } from '@authz/shared/crypto';
import { ForbiddenError, NotFoundError, ValidationError } from '@authz/shared/errors';
import { findOwnedClient } from '../clients/client-lookup.js';
import type { ApiKey, Client } from '../generated/prisma/client.js';
import type { Registry } from '../registry.js';
import { isUuid } from '../clients/uuid.js';

export type ApiKeyDeps = Pick<Registry, 'clients' | 'apiKeys' | 'secretHashKey' | 'invalidations'>;

/** docs/clients.md #6: `ak_` + 64 hex; lists show the first 11 characters and the last 4. */
const KEY_PREFIX = 'ak_';
const MASKED_PREFIX_LENGTH = 11;

/** interface.md 4.8 POST: development clients only (docs/decisions.md #14, #15); the key is shown once. */
export async function createApiKey(
  deps: ApiKeyDeps,
  ref: ClientRef | undefined,
  name: string,
): Promise<{ client: Client; apiKey: ApiKey; key: string }> {
  const client = await findOwnedClient(deps.clients, ref);
  const length = [...name].length;
  if (length < 1 || length > 255)
    throw new ValidationError([{ path: 'name', message: 'must be 1 to 255 characters long' }]);
  if (client.environment !== 'development') {
    throw new ForbiddenError({
      message: 'API keys are only available for clients in the development environment',
      detail: `client environment is ${client.environment}`,
    });
  }
  const key = `${KEY_PREFIX}${randomHexToken()}`;
  const apiKey = await deps.apiKeys.create({
    clientId: client.id,
    name,
    prefix: key.slice(0, MASKED_PREFIX_LENGTH),
    last4: key.slice(-4),
    keyHash: keyedHash(deps.secretHashKey, key),
  });
  return { client, apiKey, key };
}

/** interface.md 4.8 GET: every key of the client, revoked ones included, oldest first. */
export async function listApiKeys(
  deps: Pick<ApiKeyDeps, 'clients' | 'apiKeys'>,
  ref: ClientRef | undefined,
): Promise<{ client: Client; apiKeys: ApiKey[] }> {
  const client = await findOwnedClient(deps.clients, ref);
  const apiKeys = await deps.apiKeys.listForClient(client.id);
  return { client, apiKeys };
}

/**
 * interface.md 3 / 4.8 DELETE: revokedAt is set once (a conditional update, so concurrent calls agree)
 * and the row kept; repeating answers the same revoked key.
 */
export async function revokeApiKey(
  deps: ApiKeyDeps,
  ref: ClientRef | undefined,
  keyId: string,
): Promise<{ client: Client; apiKey: ApiKey }> {
  const client = await findOwnedClient(deps.clients, ref);
  if (!isUuid(keyId)) throw new NotFoundError({ detail: 'malformed key id' });
  const result = await deps.apiKeys.revoke(client.id, keyId.toLowerCase(), new Date());
  if (!result) throw new NotFoundError({ detail: 'no such key for this client' });
  if (result.revoked) await deps.invalidations.publish(client.clientId, 'api_key_revoked');
  return { client, apiKey: result.apiKey };
}
