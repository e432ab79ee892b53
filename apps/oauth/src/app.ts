import { UserTokensService } from '@authz/proto/oauth/v1/user_tokens';
import { DeviceAuthorizationService } from '@authz/proto/oauth/v1/device_authorization';
import { deviceAuthorizationServiceImplementation } from './rpc/device-authorization-service.js';
import { SigningKeyAdminService } from '@authz/proto/oauth/v1/signing_keys';
import { userTokensServiceImplementation } from './rpc/user-tokens-service.js';
import {
  AuthorizationService,
  DiscoveryService,
  KeysService,
  TokenService,
} from '@authz/proto/oauth/v1/oauth';
import { AccountLifecycleService } from '@authz/proto/oauth/v1/accounts';
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
import { openClientsAccess, type ClientsAccess } from './clients/clients-access.js';
import { openUserProfileAccess } from './users/user-profile-access.js';
import type { OAuthEnv } from './config/env.js';
import { PrismaClient } from './generated/prisma/client.js';
import { KeyRing } from './keys/key-ring.js';
import { PrismaSigningKeyStore } from './keys/prisma-signing-key-store.js';
import { createClientCacheLookups } from './metrics/client-cache-metrics.js';
import { createUserProfileLookups } from './metrics/user-profile-cache-metrics.js';
import { startDeletionSweeper } from './protocol/account-lifecycle/deletion-sweeper.js';
import { enabledGrants } from './protocol/grants/index.js';
import { createBackchannelLogoutDeliveries } from './metrics/backchannel-logout-metrics.js';
import { createRegistry } from './registry.js';
import { accountLifecycleServiceImplementation } from './rpc/account-lifecycle-service.js';
import { authorizationServiceImplementation } from './rpc/authorization-service.js';
import { discoveryServiceImplementation } from './rpc/discovery-service.js';
import { keysServiceImplementation } from './rpc/keys-service.js';
import { signingKeyAdminServiceImplementation } from './rpc/signing-key-admin-service.js';
import { tokenServiceImplementation } from './rpc/token-service.js';
import { openBackchannelLogoutQueue } from './session-events/backchannel-logout-queue.js';
import { startSessionEventsWorker } from './session-events/session-events-worker.js';

export interface OAuthDeps {
  env: OAuthEnv;
  logger: Logger;
}

/** The oauth service, its key ring (tests rotate keys through it) and its client cache's subscription. */
export interface OAuthApp extends ServiceApp {
  readonly keys: KeyRing;
  /** Until subscribed, client authentication bypasses the cache (docs/tokens.md #17). */
  readonly clientInvalidations: ClientsAccess['invalidations'];
}

/** Builds the oauth service: authorize, token, introspection, revocation, UserInfo, discovery, JWKS, signing keys. */
export async function buildOAuthApp({ env, logger }: OAuthDeps): Promise<OAuthApp> {
  const database = createPrismaAdapter(env.databaseUrl, logger);
  const prisma = new PrismaClient({ adapter: database });
  const redis = createRedisClient(env.redisUrl, {
    name: 'oauth',
    failFast: true,
    keyPrefix: env.redisKeyPrefix,
  });
  const app = await createServiceApp('oauth', logger, {
    database: databaseDependency(prisma, database),
    cache: redisDependency(redis),
  });
  const identityChannel = new GrpcChannel(env.services.identity);
  const clientsChannel = new GrpcChannel(env.services.clients);
  const closeChannels = () => {
    identityChannel.close();
    clientsChannel.close();
  };
  let keys: KeyRing;
  try {
    keys = await KeyRing.open({
      store: new PrismaSigningKeyStore(prisma),
      keyEncryptionKey: env.keyEncryptionKey,
      accessTokenTtlSeconds: env.accessTokenTtlSeconds,
      reloadIntervalMs: env.signingKeyReloadIntervalMs,
      log: logger,
    });
  } catch (error) {
    closeChannels();
    await app.close();
    throw error;
  }
  const clientsAccess = openClientsAccess({
    channel: clientsChannel,
    redis,
    redisKeyPrefix: env.redisKeyPrefix,
    usageFlushIntervalMs: env.clientUsageFlushIntervalMs,
    cacheLookups: createClientCacheLookups(app.metrics),
    log: logger,
  });
  const userProfiles = openUserProfileAccess({ redis, redisKeyPrefix: env.redisKeyPrefix, log: logger });
  const registry = createRegistry(env, {
    prisma,
    redis,
    log: logger,
    keys,
    clientsAccess,
    userProfiles: { cache: userProfiles.cache, lookups: createUserProfileLookups(app.metrics) },
    identityChannel,
    clientsChannel,
  });
  // interface.md 4.3: every session end, from identity's queue, and the logout tokens it sends.
  const backchannel = openBackchannelLogoutQueue(registry, {
    redisUrl: env.redisUrl,
    redisKeyPrefix: env.redisKeyPrefix,
    allowInsecureLoopback: env.allowInsecureLoopback,
    deliveries: createBackchannelLogoutDeliveries(app.metrics),
    log: logger.child({ component: 'backchannel-logout' }),
  });
  const sessionEvents = startSessionEventsWorker(
    { ...registry, backchannel },
    { redisUrl: env.redisUrl, redisKeyPrefix: env.redisKeyPrefix },
  );
  const sweeper = startDeletionSweeper(registry, env.accountDeletion);
  app.server
    .addService(TokenService, tokenServiceImplementation(registry))
    .addService(AuthorizationService, authorizationServiceImplementation(registry))
    .addService(DeviceAuthorizationService, deviceAuthorizationServiceImplementation(registry))
    .addService(KeysService, keysServiceImplementation(keys))
    .addService(SigningKeyAdminService, signingKeyAdminServiceImplementation(keys))
    .addService(UserTokensService, userTokensServiceImplementation(registry))
    .addService(AccountLifecycleService, accountLifecycleServiceImplementation(registry))
    .addService(
      DiscoveryService,
      discoveryServiceImplementation({
        issuer: env.issuer,
        scopesSupported: env.realmAllowedScopes,
        grantTypesSupported: enabledGrants(registry).map((grant) => grant.grantType),
        cimdEnabled: env.cimdEnabled,
        enterpriseAssertionEnabled: env.enterprise.enabled,
        requirePushedAuthorizationRequests: env.requirePushedAuthorizationRequests,
      }),
    );
  return {
    server: app.server,
    metrics: app.metrics,
    keys,
    clientInvalidations: clientsAccess.invalidations,
    close: async () => {
      await sessionEvents.close();
      await backchannel.close();
      sweeper.stop();
      keys.close();
      // The last usage report still needs the clients channel.
      await clientsAccess.close();
      await userProfiles.close();
      closeChannels();
      await app.close();
    },
  };
}

export { loadOAuthEnv, type OAuthEnv } from './config/env.js';
export { FIRST_PARTY_CLIENT_ID } from './protocol/first-party/first-party-client.js';
export { DPOP_NONCE_WINDOW_SECONDS } from './protocol/dpop/dpop-nonce.js';
