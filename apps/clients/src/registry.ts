import type { Logger } from '@authz/shared/logger';
import type { Redis } from 'ioredis';
import type { ClientsEnv } from './config/env.js';
import type { PrismaClient } from './generated/prisma/client.js';
import { createClientInvalidations, type ClientInvalidations } from './invalidation/client-invalidations.js';

/** Everything the features need, built once per app (CONVENTIONS.md #6). */
export interface ClientsRegistry {
  prisma: PrismaClient;
  log: Logger;
  secretHashKey: Buffer;
  /** DECISIONS.md #1: the single realm's allowed-scopes policy (docs/clients.md #3). */
  realmAllowedScopes: ReadonlySet<string>;
  /** Spec 5: the scopes a dynamically registered client may hold, in configured order. */
  dynamicRegistrationScopes: readonly string[];
  invalidations: ClientInvalidations;
}

export function createRegistry(
  env: ClientsEnv,
  parts: { prisma: PrismaClient; redis: Redis; log: Logger },
): ClientsRegistry {
  return {
    prisma: parts.prisma,
    log: parts.log,
    secretHashKey: env.secretHashKey,
    realmAllowedScopes: new Set(env.realmAllowedScopes),
    dynamicRegistrationScopes: env.dynamicRegistrationScopes,
    invalidations: createClientInvalidations(parts.redis, env.redisKeyPrefix, parts.log),
  };
}
