import { ClientsService } from '@authz/proto/clients/v1/clients';
import { DeveloperDataService } from '@authz/proto/clients/v1/developer_data';
import { AccountService } from '@authz/proto/identity/v1/accounts';
import { AdminService } from '@authz/proto/identity/v1/admin';
import { IdentityService } from '@authz/proto/identity/v1/identity';
import { createPrismaAdapter } from '@authz/shared/database';
import { GrpcChannel } from '@authz/shared/grpc';
import { createRedisClient } from '@authz/shared/redis';
import { testLogger } from '@authz/shared/testing';
import { loadOAuthEnv, type OAuthApp } from '../src/app.js';
import { PrismaClient } from '../src/generated/prisma/client.js';
import type {
  ConsentPrompt,
  LogoutPrompt,
  PendingAuthorization,
} from '../src/protocol/authorize/handle-store.js';
import type { Registry } from '../src/registry.js';
import { accountsOverGrpc } from '../src/rpc/accounts-client.js';
import { clientsOverGrpc } from '../src/rpc/clients-client.js';
import { identityOverGrpc } from '../src/rpc/identity-client.js';
import { PrismaAuthorizationCodeStore } from '../src/storage/prisma-authorization-code-store.js';
import { PrismaConsentStore } from '../src/storage/prisma-consent-store.js';
import { PrismaRefreshTokenStore } from '../src/storage/prisma-refresh-token-store.js';
import { PrismaDerivedTokenStore } from '../src/storage/prisma-derived-token-store.js';
import { PrismaUserGrantsStore } from '../src/storage/prisma-user-grants-store.js';
import { RedisDenyList } from '../src/storage/redis-deny-list.js';
import { RedisHandleStore } from '../src/storage/redis-handle-store.js';
import { RedisDpopJtiStore } from '../src/storage/redis-dpop-jti-store.js';
import type { PushedAuthorization } from '../src/protocol/par/pushed-authorization.js';
import { AccessTokenSignatures } from '../src/keys/access-token-signatures.js';
import { RedisDeviceGrantStore } from '../src/storage/redis-device-grant-store.js';
import type {
  DeviceConsentPrompt,
  PendingDeviceVerification,
} from '../src/protocol/device-authorization/device-verification.js';

/**
 * A Registry over the same database, Redis prefix, keys and fakes as a running instance, for
 * tests that call protocol functions directly, e.g. to interleave store calls.
 */
export function openTestRegistry(
  source: NodeJS.ProcessEnv,
  keys: OAuthApp['keys'],
): { registry: Registry; prisma: PrismaClient; close(): Promise<void> } {
  const env = loadOAuthEnv(source);
  const prisma = new PrismaClient({ adapter: createPrismaAdapter(env.databaseUrl, testLogger()) });
  const redis = createRedisClient(env.redisUrl, { name: 'oauth-test', keyPrefix: env.redisKeyPrefix });
  const identityChannel = new GrpcChannel(env.services.identity);
  const clientsChannel = new GrpcChannel(env.services.clients);
  const handles = <T>(namespace: string) =>
    new RedisHandleStore<T>(redis, { namespace, secretHashKey: env.secretHashKey, ttlSeconds: 600 });
  const registry: Registry = {
    config: {
      issuer: env.issuer,
      accessTokenTtlSeconds: env.accessTokenTtlSeconds,
      refreshTokenTtlSeconds: env.refreshTokenTtlSeconds,
      authorizationCodeTtlSeconds: env.authorizationCodeTtlSeconds,
      secretHashKey: env.secretHashKey,
      idJagAudiences: env.enterprise.idJagAudiences,
    },
    keys,
    accessTokenSignatures: new AccessTokenSignatures(keys),
    refreshTokens: new PrismaRefreshTokenStore(prisma),
    derivedTokens: new PrismaDerivedTokenStore(prisma),
    denyList: new RedisDenyList(redis),
    identity: identityOverGrpc(identityChannel.service(IdentityService)),
    accounts: accountsOverGrpc(
      identityChannel.service(AccountService),
      clientsChannel.service(DeveloperDataService),
      identityChannel.service(AdminService),
    ),
    userGrants: new PrismaUserGrantsStore(prisma),
    clients: clientsOverGrpc(clientsChannel.service(ClientsService)),
    clientUsage: { record: () => undefined },
    clientBudget: { consume: async () => undefined },
    consents: new PrismaConsentStore(prisma),
    authorizationCodes: new PrismaAuthorizationCodeStore(prisma),
    pendingAuthorizations: handles<PendingAuthorization>('pending-authorization'),
    consentPrompts: handles<ConsentPrompt>('consent-prompt'),
    logoutPrompts: handles<LogoutPrompt>('logout-prompt'),
    pushedAuthorizations: handles<PushedAuthorization>('pushed-authorization'),
    dpopJtis: new RedisDpopJtiStore(redis),
    audit: { recordDelegation: async () => undefined },
    enterprise: undefined,
    log: testLogger(),
    deviceAuthorization: env.deviceAuthorization,
    deviceGrants: new RedisDeviceGrantStore(redis),
    deviceVerifications: handles<PendingDeviceVerification>('device-verification'),
    deviceConsentPrompts: handles<DeviceConsentPrompt>('device-consent-prompt'),
  };
  return {
    registry,
    prisma,
    async close() {
      identityChannel.close();
      clientsChannel.close();
      redis.disconnect();
      await prisma.$disconnect();
    },
  };
}
