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

export interface ClientsDeps {
  env: ClientsEnv;
  logger: Logger;
}

/** Builds the clients service: OAuth clients, secrets, API keys, dynamic registration, CIMD, client authentication. */
export async function buildClientsApp({ env, logger }: ClientsDeps): Promise<ServiceApp> {
  const prisma = new PrismaClient({ adapter: createPrismaAdapter(env.databaseUrl, logger) });
  const redis = createRedisClient(env.redisUrl, { name: 'clients', failFast: true });
  return createServiceApp('clients', logger, {
    database: databaseDependency(prisma),
    cache: redisDependency(redis),
  });
}

export { loadClientsEnv, type ClientsEnv } from './config/env.js';
