import type { ClientRef } from '@authz/proto/clients/v1/clients';
import { NotFoundError } from '@authz/shared/errors';
import type { Client } from '../generated/prisma/client.js';
import type { ClientStore } from './client-store.js';
import { isUuid } from './uuid.js';

/**
 * docs/decisions.md #22: `ref.id` is the record id or the OAuth client id of a client the caller
 * owns. Anything else, another developer's client included, is the same 404 (interface.md 4.7).
 * Both identifiers are UUIDs, so the first-party client (`authz-first-party`, docs/decisions.md #2,
 * not stored here) can never be reached.
 */
export async function findOwnedClient(clients: ClientStore, ref: ClientRef | undefined): Promise<Client> {
  const id = ref?.id ?? '';
  const developerId = ref?.owner?.developerId ?? '';
  if (!isUuid(id) || !isUuid(developerId)) throw new NotFoundError({ detail: 'malformed client reference' });
  const client = await clients.findOwned(developerId, id.toLowerCase());
  if (!client) throw new NotFoundError({ detail: 'no such client for this developer' });
  return client;
}
