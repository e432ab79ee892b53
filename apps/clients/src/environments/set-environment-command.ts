import { createPrismaAdapter } from '@authz/shared/database';
import type { Logger } from '@authz/shared/logger';
import { createRedisClient } from '@authz/shared/redis';
import { PrismaClient } from '../generated/prisma/client.js';
import { createClientInvalidations } from '../invalidation/client-invalidations.js';
import { PrismaClientStore } from '../storage/prisma-client-store.js';
import { setClientEnvironment } from './set-environment.js';

export interface SetEnvironmentConnections {
  databaseUrl: string;
  redisUrl: string;
  redisKeyPrefix: string;
  log: Logger;
}

/** Opens what the operator command needs, runs it, closes everything (docs/decisions.md #14). */
export async function runSetEnvironment(
  connections: SetEnvironmentConnections,
  id: string,
  environment: string,
): Promise<{ clientId: string; revokedKeys: number }> {
  const prisma = new PrismaClient({ adapter: createPrismaAdapter(connections.databaseUrl, connections.log) });
  const redis = createRedisClient(connections.redisUrl, { name: 'clients-set-environment' });
  try {
    const invalidations = createClientInvalidations(redis, connections.redisKeyPrefix, connections.log);
    return await setClientEnvironment(
      { clients: new PrismaClientStore(prisma), invalidations },
      id,
      environment,
    );
  } finally {
    await prisma.$disconnect();
    await redis.quit().catch(() => redis.disconnect());
  }
}
