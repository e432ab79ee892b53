import type { IdentityService } from '@authz/proto/identity/v1/identity';
import { NotFoundError } from '@authz/shared/errors';
import type { ServiceClient } from '@authz/shared/grpc';
import type { Logger } from '@authz/shared/logger';
import type { PrismaClient } from './generated/prisma/client.js';
import type { WalletConfig } from './verifier/wallet-config.js';

/** Everything the features need, built once per app (docs/conventions.md #6). */
export interface WalletBridgeRegistry {
  prisma: PrismaClient;
  identity: ServiceClient<typeof IdentityService>;
  secretHashKey: Buffer;
  log: Logger;
  /** Absent while wallet federation is off or has no usable verifier profile. */
  wallet: WalletConfig | undefined;
}

/** docs/decisions.md #25: while off or unusable, every wallet operation is NotFoundError, checked first. */
export function requireWallet(registry: Pick<WalletBridgeRegistry, 'wallet'>): WalletConfig {
  if (!registry.wallet) throw new NotFoundError({ detail: 'wallet federation is off' });
  return registry.wallet;
}
