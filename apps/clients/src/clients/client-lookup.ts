import type { ClientRef } from '@authz/proto/clients/v1/clients';
import { NotFoundError } from '@authz/shared/errors';
import type { Client, PrismaClient } from '../generated/prisma/client.js';
import { isUuid } from './uuid.js';

/**
 * docs/decisions.md #22: `ref.id` is the record id or the OAuth client id of a client the caller
 * owns. Anything else, another developer's client included, is the same 404 (interface.md 4.7).
 * Both identifiers are UUIDs, so the first-party client (`authz-first-party`, docs/decisions.md #2,
 * not stored here) can never be reached.
 */
export async function findOwnedClient(prisma: PrismaClient, ref: ClientRef | undefined): Promise<Client> {
  const id = ref?.id ?? '';
  const developerId = ref?.owner?.developerId ?? '';
  if (!isUuid(id) || !isUuid(developerId)) throw new NotFoundError({ detail: 'malformed client reference' });
  const lowered = id.toLowerCase();
  const client = await prisma.client.findFirst({
    where: { developerId, OR: [{ id: lowered }, { clientId: lowered }] },
  });
  if (!client) throw new NotFoundError({ detail: 'no such client for this developer' });
  return client;
}
