import { InvalidClientError } from '@authz/shared/errors';
import type { AuthenticatableClient } from '../authentication/authenticatable-client.js';
import { MetadataDocumentError } from '../cimd/metadata-document.js';
import { isUuid } from '../clients/uuid.js';
import type { Registry } from '../registry.js';

export type FindClientDeps = Pick<Registry, 'clients' | 'cimd'>;

/**
 * interface.md 5 client resolution, shared by AuthenticateClient and ResolveClient: pre-registered
 * clients first, then client metadata documents (CIMD_ENABLED), then dynamically registered
 * clients. Stored client ids are UUIDs and CIMD ids are URLs, so the order only matters for
 * the (impossible) overlap; it is kept explicit all the same. Disabled clients are returned:
 * each caller refuses them its own way. A document that cannot stand for a client is
 * invalid_client with its problem as the description (interface.md 7 "Other rules", docs/clients.md #13).
 */
export async function findClient(
  deps: FindClientDeps,
  clientId: string,
): Promise<AuthenticatableClient | undefined> {
  const stored = isUuid(clientId) ? await deps.clients.findByClientId(clientId) : undefined;
  if (stored?.source === 'pre_registered') return stored;
  if (deps.cimd?.handles(clientId)) {
    try {
      return await deps.cimd.resolve(clientId);
    } catch (error) {
      if (error instanceof MetadataDocumentError)
        throw new InvalidClientError({ message: error.description });
      throw error;
    }
  }
  return stored;
}
