import type { ClientAdminService } from '@authz/proto/clients/v1/client_admin';
import type { ServiceImplementation } from '@authz/shared/grpc';
import { administerClient, listAllClients } from '../admin/administer-clients.js';
import { toClientMessage } from '../clients/client-view.js';
import type { Client } from '../generated/prisma/client.js';
import type { Registry } from '../registry.js';

/** The operator API's clients part (interface.md 4.15): thin translations (docs/conventions.md #2). */
export function clientAdminServiceImplementation(
  registry: Registry,
): ServiceImplementation<typeof ClientAdminService> {
  return {
    async listAllClients(request) {
      const { clients, nextCursor } = await listAllClients(registry, request);
      return { clients: clients.map(toAdminClient), ...(nextCursor ? { nextCursor } : {}) };
    },
    async administerClient(request) {
      const { client, revokedApiKeys } = await administerClient(registry, request);
      return { client: toAdminClient(client), revokedApiKeys };
    },
  };
}

function toAdminClient(client: Client) {
  return {
    client: toClientMessage(client),
    ...(client.developerId === null ? {} : { developerId: client.developerId }),
    environment: client.environment,
  };
}
