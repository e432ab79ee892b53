import type { DeveloperDataService } from '@authz/proto/clients/v1/developer_data';
import type { ServiceImplementation } from '@authz/shared/grpc';
import { purgeDeveloper } from '../clients/purge-developer.js';
import type { Registry } from '../registry.js';

/** Account deletion's part in the clients service (interface.md 4.10): a thin translation. */
export function developerDataServiceImplementation(
  registry: Registry,
): ServiceImplementation<typeof DeveloperDataService> {
  return {
    async purgeDeveloper(request) {
      return { deletedClients: await purgeDeveloper(registry, request.developerId) };
    },
  };
}
