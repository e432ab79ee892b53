import { IdentityService } from '@authz/proto/identity/v1/identity';
import { NotFoundError } from '@authz/shared/errors';
import type { GrpcChannel, ServiceClient } from '@authz/shared/grpc';
import type { Logger } from '@authz/shared/logger';
import type { WalletBridgeEnv } from './config/env.js';
import type { PrismaClient } from './generated/prisma/client.js';
import type { PresentationRequestStore } from './requests/presentation-request-store.js';
import { PrismaPresentationRequestStore } from './storage/prisma-presentation-request-store.js';
import { loadWalletConfig, type WalletConfig } from './verifier/wallet-config.js';

/** Everything the features need, built once per app (docs/conventions.md #6). */
export interface Registry {
  requests: PresentationRequestStore;
  identity: ServiceClient<typeof IdentityService>;
  secretHashKey: Buffer;
  log: Logger;
  /** Absent while wallet federation is off or has no usable verifier profile. */
  wallet: WalletConfig | undefined;
}

/** The registry over the database and identity channel app.ts opened (and closes). */
export function createRegistry(
  env: WalletBridgeEnv,
  parts: { prisma: PrismaClient; identityChannel: GrpcChannel; log: Logger },
): Registry {
  return {
    requests: new PrismaPresentationRequestStore(parts.prisma),
    identity: parts.identityChannel.service(IdentityService),
    secretHashKey: env.secretHashKey,
    log: parts.log,
    wallet: loadWalletConfig(env, parts.log),
  };
}

/** docs/decisions.md #25: while off or unusable, every wallet operation is NotFoundError, checked first. */
export function requireWallet(registry: Pick<Registry, 'wallet'>): WalletConfig {
  if (!registry.wallet) throw new NotFoundError({ detail: 'wallet federation is off' });
  return registry.wallet;
}
