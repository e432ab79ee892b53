import { PresentationTransportService, WalletFlowService } from '@authz/proto/walletbridge/v1/walletbridge';
import { createPrismaAdapter } from '@authz/shared/database';
import { GrpcChannel } from '@authz/shared/grpc';
import type { Logger } from '@authz/shared/logger';
import { createRedisClient } from '@authz/shared/redis';
import {
  createServiceApp,
  databaseDependency,
  redisDependency,
  type ServiceApp,
} from '@authz/shared/service';
import type { WalletBridgeEnv } from './config/env.js';
import { flowServiceImplementation } from './rpc/flow-service.js';
import { transportServiceImplementation } from './rpc/transport-service.js';
import { PrismaClient } from './generated/prisma/client.js';
import { startExpiredRequestSweeper } from './requests/sweep-expired-requests.js';
import { createRegistry } from './registry.js';

export interface WalletBridgeDeps {
  env: WalletBridgeEnv;
  logger: Logger;
}

/** Builds the wallet-bridge service: OID4VP presentation requests, request objects, wallet sign-in and linking state. */
export async function buildWalletBridgeApp({ env, logger }: WalletBridgeDeps): Promise<ServiceApp> {
  const database = createPrismaAdapter(env.databaseUrl, logger);
  const prisma = new PrismaClient({ adapter: database });
  const redis = createRedisClient(env.redisUrl, { name: 'wallet-bridge', failFast: true });
  const app = await createServiceApp('wallet-bridge', logger, {
    database: databaseDependency(prisma, database),
    cache: redisDependency(redis),
  });
  // docs/decisions.md #6: identity is the only service wallet-bridge calls.
  const identityChannel = new GrpcChannel(env.services.identity);
  const registry = createRegistry(env, { prisma, identityChannel, log: logger });
  app.server
    .addService(PresentationTransportService, transportServiceImplementation(registry))
    .addService(WalletFlowService, flowServiceImplementation(registry));
  const sweeper = startExpiredRequestSweeper(registry.requests, logger);
  return {
    server: app.server,
    metrics: app.metrics,
    close: async () => {
      sweeper.stop();
      identityChannel.close();
      await app.close();
    },
  };
}

export { loadWalletBridgeEnv, type WalletBridgeEnv } from './config/env.js';
