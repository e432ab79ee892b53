import { IdentityService } from '@authz/proto/identity/v1/identity';
import { KeysService, TokenService } from '@authz/proto/oauth/v1/oauth';
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
import type { OAuthEnv } from './config/env.js';
import { PrismaClient } from './generated/prisma/client.js';
import { KEY_RELOAD_INTERVAL_MS, KeyRing } from './keys/key-ring.js';
import { PrismaSigningKeyStore } from './keys/prisma-signing-key-store.js';
import type { Registry } from './protocol/registry.js';
import { identityOverGrpc } from './rpc/identity-client.js';
import { keysServiceImplementation } from './rpc/keys-service.js';
import { tokenServiceImplementation } from './rpc/token-service.js';
import { PrismaRefreshTokenStore } from './storage/prisma-refresh-token-store.js';
import { RedisDenyList } from './storage/redis-deny-list.js';

export interface OAuthDeps {
  env: OAuthEnv;
  logger: Logger;
}

/** The oauth service and its key ring (tests rotate keys through it). */
export interface OAuthApp extends ServiceApp {
  readonly keys: KeyRing;
}

/** Builds the oauth service: authorize, token, introspection, revocation, UserInfo, discovery, JWKS, signing keys. */
export async function buildOAuthApp({ env, logger }: OAuthDeps): Promise<OAuthApp> {
  const prisma = new PrismaClient({ adapter: createPrismaAdapter(env.databaseUrl, logger) });
  const redis = createRedisClient(env.redisUrl, {
    name: 'oauth',
    failFast: true,
    keyPrefix: env.redisKeyPrefix,
  });
  const app = await createServiceApp('oauth', logger, {
    database: databaseDependency(prisma),
    cache: redisDependency(redis),
  });
  const identityChannel = new GrpcChannel(env.services.identity);
  let keys: KeyRing;
  try {
    keys = await KeyRing.open({
      store: new PrismaSigningKeyStore(prisma),
      keyEncryptionKey: env.keyEncryptionKey,
      accessTokenTtlSeconds: env.accessTokenTtlSeconds,
      reloadIntervalMs: KEY_RELOAD_INTERVAL_MS,
      log: logger,
    });
  } catch (error) {
    identityChannel.close();
    await app.close();
    throw error;
  }
  const registry: Registry = {
    config: {
      issuer: env.issuer,
      accessTokenTtlSeconds: env.accessTokenTtlSeconds,
      refreshTokenTtlSeconds: env.refreshTokenTtlSeconds,
      secretHashKey: env.secretHashKey,
    },
    keys,
    refreshTokens: new PrismaRefreshTokenStore(prisma),
    denyList: new RedisDenyList(redis),
    identity: identityOverGrpc(identityChannel.service(IdentityService)),
    log: logger,
  };
  app.server
    .addService(TokenService, tokenServiceImplementation(registry))
    .addService(KeysService, keysServiceImplementation(keys));
  return {
    server: app.server,
    metrics: app.metrics,
    keys,
    close: async () => {
      keys.close();
      identityChannel.close();
      await app.close();
    },
  };
}

export { loadOAuthEnv, type OAuthEnv } from './config/env.js';
export { FIRST_PARTY_CLIENT_ID } from './protocol/first-party-client.js';
