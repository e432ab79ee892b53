import type { Logger } from '@authz/shared/logger';
import type { Redis } from 'ioredis';
import { createClientKeySets, type ClientKeySets } from './authentication/client-key-sets.js';
import { createCimdResolver, type CimdResolver } from './cimd/resolve-cimd-client.js';
import type { ClientsEnv } from './config/env.js';
import type { ApiKeyStore } from './api-keys/api-key-store.js';
import type { ClientStore } from './clients/client-store.js';
import type { PrismaClient } from './generated/prisma/client.js';
import { createClientInvalidations, type ClientInvalidations } from './invalidation/client-invalidations.js';
import { DYNAMIC_GRANT_TYPES, JWT_BEARER_GRANT } from './registration/registration-metadata.js';
import { PrismaApiKeyStore } from './storage/prisma-api-key-store.js';
import { PrismaClientStore } from './storage/prisma-client-store.js';

/** Everything the features need, built once per app (docs/conventions.md #6). */
export interface Registry {
  clients: ClientStore;
  apiKeys: ApiKeyStore;
  /** Keys carry the service's REDIS_KEY_PREFIX (ioredis keyPrefix). */
  redis: Redis;
  log: Logger;
  secretHashKey: Buffer;
  /** The one `aud` a client assertion may carry: the issuer (docs/clients.md #12). */
  assertionAudience: string;
  /** docs/decisions.md #1: the single realm's allowed-scopes policy (docs/clients.md #3). */
  realmAllowedScopes: ReadonlySet<string>;
  /** interface.md 5: the scopes a dynamically registered client may hold, in configured order. */
  dynamicRegistrationScopes: readonly string[];
  /** What dynamic registration may grant: jwt-bearer only while ENTERPRISE_ASSERTION_ENABLED. */
  registrationGrantTypes: readonly string[];
  /** Test-only CIMD_ALLOW_INSECURE_LOOPBACK: loopback http for documents and jwks_uri. */
  allowInsecureLoopback: boolean;
  invalidations: ClientInvalidations;
  /** Undefined while CIMD_ENABLED is off. */
  cimd: CimdResolver | undefined;
  keySets: ClientKeySets;
}

export function createRegistry(
  env: ClientsEnv,
  parts: { prisma: PrismaClient; redis: Redis; log: Logger },
): Registry {
  const outbound = { allowInsecureLoopback: env.allowInsecureLoopback };
  return {
    clients: new PrismaClientStore(parts.prisma),
    apiKeys: new PrismaApiKeyStore(parts.prisma),
    redis: parts.redis,
    log: parts.log,
    secretHashKey: env.secretHashKey,
    assertionAudience: env.issuer,
    realmAllowedScopes: new Set(env.realmAllowedScopes),
    dynamicRegistrationScopes: env.dynamicRegistrationScopes,
    registrationGrantTypes: env.enterpriseAssertionEnabled
      ? [...DYNAMIC_GRANT_TYPES, JWT_BEARER_GRANT]
      : DYNAMIC_GRANT_TYPES,
    allowInsecureLoopback: env.allowInsecureLoopback,
    invalidations: createClientInvalidations(parts.redis, env.redisKeyPrefix, parts.log),
    cimd: env.cimdEnabled
      ? createCimdResolver({
          redis: parts.redis,
          log: parts.log,
          dynamicRegistrationScopes: env.dynamicRegistrationScopes,
          ...outbound,
        })
      : undefined,
    keySets: createClientKeySets(outbound),
  };
}
