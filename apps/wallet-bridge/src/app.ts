import { createPrismaAdapter } from '@authz/shared/database';
import type { Logger } from '@authz/shared/logger';
import { createRedisClient } from '@authz/shared/redis';
import {
  createServiceApp,
  databaseDependency,
  redisDependency,
  type ServiceApp,
} from '@authz/shared/service';
import type { WalletBridgeEnv } from './config/env.js';
import { PrismaClient } from './generated/prisma/client.js';

export interface WalletBridgeDeps {
  env: WalletBridgeEnv;
  logger: Logger;
}

/** Builds the wallet-bridge service: OID4VP presentation requests, request objects, wallet sign-in and linking state. */
export async function buildWalletBridgeApp({ env, logger }: WalletBridgeDeps): Promise<ServiceApp> {
  const prisma = new PrismaClient({ adapter: createPrismaAdapter(env.databaseUrl, logger) });
  const redis = createRedisClient(env.redisUrl, { name: 'wallet-bridge', failFast: true });
  return createServiceApp('wallet-bridge', logger, {
    database: databaseDependency(prisma),
    cache: redisDependency(redis),
  });
}

export { loadWalletBridgeEnv, type WalletBridgeEnv } from './config/env.js';
