import { ClientsService } from '@authz/proto/clients/v1/clients';
import { ClientAdminService } from '@authz/proto/clients/v1/client_admin';
import { clientAdminServiceImplementation } from './rpc/client-admin-service.js';
import { DeveloperDataService } from '@authz/proto/clients/v1/developer_data';
import { createPrismaAdapter } from '@authz/shared/database';
import type { Logger } from '@authz/shared/logger';
import { createRedisClient } from '@authz/shared/redis';
import {
  createServiceApp,
  databaseDependency,
  redisDependency,
  type ServiceApp,
} from '@authz/shared/service';
import type { ClientsEnv } from './config/env.js';
import { PrismaClient } from './generated/prisma/client.js';
import { createRegistry } from './registry.js';
import { clientsServiceImplementation } from './rpc/clients-service.js';
import { developerDataServiceImplementation } from './rpc/developer-data-service.js';

export interface ClientsDeps {
  env: ClientsEnv;
  logger: Logger;
}

/** Builds the clients service: OAuth clients, secrets, API keys, dynamic registration, CIMD, client authentication. */
export async function buildClientsApp({ env, logger }: ClientsDeps): Promise<ServiceApp> {
  const database = createPrismaAdapter(env.databaseUrl, logger);
  const prisma = new PrismaClient({ adapter: database });
  const redis = createRedisClient(env.redisUrl, {
    name: 'clients',
    failFast: true,
    ...(env.redisKeyPrefix ? { keyPrefix: env.redisKeyPrefix } : {}),
  });
  const app = await createServiceApp('clients', logger, {
    database: databaseDependency(prisma, database),
    cache: redisDependency(redis),
  });
  const registry = createRegistry(env, { prisma, redis, log: logger });
  app.server
    .addService(ClientsService, clientsServiceImplementation(registry))
    .addService(DeveloperDataService, developerDataServiceImplementation(registry))
    .addService(ClientAdminService, clientAdminServiceImplementation(registry));
  return app;
}

export { loadClientsEnv, type ClientsEnv } from './config/env.js';
export { invalidationChannel } from './invalidation/client-invalidations.js';
export { runSetEnvironment } from './environments/set-environment-command.js';
