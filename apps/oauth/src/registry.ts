import { DeveloperDataService } from '@authz/proto/clients/v1/developer_data';
import { AccountService } from '@authz/proto/identity/v1/accounts';
import { AdminService } from '@authz/proto/identity/v1/admin';
import { AccountLookupService, AuditService, IdentityService } from '@authz/proto/identity/v1/identity';
import type { GrpcChannel } from '@authz/shared/grpc';
import type { Logger } from '@authz/shared/logger';
import type { Redis } from 'ioredis';
import type { ClientsAccess } from './clients/clients-access.js';
import type { OAuthEnv } from './config/env.js';
import { openEnterpriseAssertions } from './enterprise/enterprise-assertions.js';
import type { PrismaClient } from './generated/prisma/client.js';
import type { KeyRing } from './keys/key-ring.js';
import { AccessTokenSignatures } from './keys/access-token-signatures.js';
import type { AccountsPort } from './protocol/account-lifecycle/accounts-port.js';
import type { UserGrantsStore } from './protocol/account-lifecycle/user-grants-store.js';
import type { AuditPort } from './protocol/delegation/audit-port.js';
import type { AuthorizationCodeStore } from './protocol/authorization-code/authorization-code-store.js';
import {
  HANDLE_TTL_SECONDS,
  type ConsentPrompt,
  type HandleStore,
  type LogoutPrompt,
  type PendingAuthorization,
} from './protocol/authorize/handle-store.js';
import type { ClientRequestBudget } from './protocol/client-authentication/client-request-budget.js';
import type { ClientsPort, ClientUsageLog } from './protocol/client-authentication/clients-port.js';
import type { ConsentStore } from './protocol/consent/consent-store.js';
import type { AccessTokenDenyList } from './protocol/access-token/deny-list.js';
import type { EnterpriseAssertions } from './protocol/id-jag/enterprise-port.js';
import type { IdentityPort } from './protocol/identity-port.js';
import type { DeviceAuthorizationConfig } from './protocol/device-authorization/device-authorization-config.js';
import type { DeviceGrantStore } from './protocol/device-authorization/device-grant-store.js';
import type {
  DeviceConsentPrompt,
  PendingDeviceVerification,
} from './protocol/device-authorization/device-verification.js';
import type { RefreshTokenStore } from './protocol/refresh-token/refresh-token-store.js';
import type { DerivedTokenStore } from './protocol/token-lineage/derived-token-store.js';
import { findUserByVerifiedEmailOverGrpc } from './rpc/account-lookup-client.js';
import { accountsOverGrpc } from './rpc/accounts-client.js';
import { auditOverGrpc } from './rpc/audit-client.js';
import { identityOverGrpc } from './rpc/identity-client.js';
import { withUserProfileCache, type UserProfileCache } from './users/cached-identity.js';
import type { UserProfileLookups } from './metrics/user-profile-cache-metrics.js';
import { PrismaAuthorizationCodeStore } from './storage/prisma-authorization-code-store.js';
import { PrismaConsentStore } from './storage/prisma-consent-store.js';
import { PrismaDerivedTokenStore } from './storage/prisma-derived-token-store.js';
import { PrismaRefreshTokenStore } from './storage/prisma-refresh-token-store.js';
import { PrismaUserGrantsStore } from './storage/prisma-user-grants-store.js';
import { RedisClientRequestBudget } from './storage/redis-client-request-budget.js';
import { RedisDenyList } from './storage/redis-deny-list.js';
import { RedisDpopJtiStore } from './storage/redis-dpop-jti-store.js';
import type { DpopJtiStore } from './protocol/dpop/dpop-jti-store.js';
import {
  PUSHED_AUTHORIZATION_TTL_SECONDS,
  type PushedAuthorization,
} from './protocol/par/pushed-authorization.js';
import { RedisHandleStore } from './storage/redis-handle-store.js';
import { RedisDeviceGrantStore } from './storage/redis-device-grant-store.js';

export interface TokenConfig {
  issuer: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  authorizationCodeTtlSeconds: number;
  secretHashKey: Buffer;
  /** ENTERPRISE_ID_JAG_AUDIENCES: the only targets an ID-JAG is issued for. */
  idJagAudiences: readonly string[];
  /** REQUIRE_PAR (docs/par-and-dpop.md #4); absent is false. */
  requirePushedAuthorizationRequests?: boolean;
}

/** Everything the protocol logic may use; each feature picks what it needs (docs/conventions.md #6). */
export interface Registry {
  config: TokenConfig;
  keys: Pick<KeyRing, 'signingKey' | 'verificationKey'>;
  /** The signature check of our access tokens, remembered per token (docs/performance.md #20). */
  accessTokenSignatures: Pick<AccessTokenSignatures, 'verify'>;
  refreshTokens: RefreshTokenStore;
  /** Tokens derived from ours, with the lineage that revokes them (docs/tokens.md #30). */
  derivedTokens: DerivedTokenStore;
  denyList: AccessTokenDenyList;
  identity: IdentityPort;
  /** Sessions and deletions of accounts (interface.md 4.10, docs/identity.md #19). */
  accounts: AccountsPort;
  /** Everything oauth holds of one user, for account deletion. */
  userGrants: UserGrantsStore;
  /** Client authentication by the clients service, cached (docs/tokens.md #16), and resolution. */
  clients: Pick<ClientsPort, 'authenticateClient' | 'resolveClient'>;
  /** Uses for the coalesced lastUsedAt (docs/tokens.md #18). */
  clientUsage: ClientUsageLog;
  /** Requests per authenticated confidential client (docs/security.md #11). */
  clientBudget: ClientRequestBudget;
  consents: ConsentStore;
  authorizationCodes: AuthorizationCodeStore;
  /** Authorizations waiting for sign-in (interface.md 2.6). */
  pendingAuthorizations: HandleStore<PendingAuthorization>;
  /** Authorizations waiting for the consent decision. */
  consentPrompts: HandleStore<ConsentPrompt>;
  /** Logouts waiting for the user's confirmation (interface.md 4.3). */
  logoutPrompts: HandleStore<LogoutPrompt>;
  /** RFC 9126 request URIs: pushed authorization requests, single use, 60 s (docs/par-and-dpop.md #2). */
  pushedAuthorizations: HandleStore<PushedAuthorization>;
  /** RFC 9449 section 11.1: DPoP proof jtis already used (docs/par-and-dpop.md #8). */
  dpopJtis: DpopJtiStore;
  /** Delegations are recorded in identity's audit log (docs/identity.md #14). */
  audit: AuditPort;
  /** ID-JAG acceptance; undefined while ENTERPRISE_ASSERTION_ENABLED is off. */
  enterprise: EnterpriseAssertions | undefined;
  log: Logger;
  /** RFC 8628 (docs/device-grant.md): settings, grants, and the user's way through the pages. */
  deviceAuthorization: DeviceAuthorizationConfig;
  deviceGrants: DeviceGrantStore;
  deviceVerifications: HandleStore<PendingDeviceVerification>;
  deviceConsentPrompts: HandleStore<DeviceConsentPrompt>;
}

/**
 * The registry over what app.ts opened; app.ts keeps those parts, since it closes them in its
 * own order (the key ring and the last usage report before the channels).
 */
export function createRegistry(
  env: OAuthEnv,
  parts: {
    prisma: PrismaClient;
    redis: Redis;
    log: Logger;
    keys: KeyRing;
    clientsAccess: ClientsAccess;
    userProfiles: { cache: UserProfileCache; lookups: UserProfileLookups };
    identityChannel: GrpcChannel;
    clientsChannel: GrpcChannel;
  },
): Registry {
  const { prisma, redis, identityChannel } = parts;
  return {
    config: {
      issuer: env.issuer,
      accessTokenTtlSeconds: env.accessTokenTtlSeconds,
      refreshTokenTtlSeconds: env.refreshTokenTtlSeconds,
      authorizationCodeTtlSeconds: env.authorizationCodeTtlSeconds,
      secretHashKey: env.secretHashKey,
      idJagAudiences: env.enterprise.idJagAudiences,
      requirePushedAuthorizationRequests: env.requirePushedAuthorizationRequests,
    },
    keys: parts.keys,
    accessTokenSignatures: new AccessTokenSignatures(parts.keys),
    refreshTokens: new PrismaRefreshTokenStore(prisma),
    derivedTokens: new PrismaDerivedTokenStore(prisma),
    denyList: new RedisDenyList(redis),
    // GetUser runs for every UserInfo request and token grant: answered from the profile cache
    // for a returning user (#22), else batched under load like the gateway's calls to oauth
    // (docs/performance.md #11, #21).
    identity: withUserProfileCache(
      identityOverGrpc(identityChannel.service(IdentityService, { batched: ['getUser'] })),
      parts.userProfiles.cache,
      parts.userProfiles.lookups,
    ),
    accounts: accountsOverGrpc(
      identityChannel.service(AccountService),
      parts.clientsChannel.service(DeveloperDataService),
      identityChannel.service(AdminService),
    ),
    userGrants: new PrismaUserGrantsStore(prisma),
    clients: parts.clientsAccess.clients,
    clientUsage: parts.clientsAccess.usage,
    clientBudget: env.clientRateLimit.enabled
      ? new RedisClientRequestBudget(redis, env.clientRateLimit, parts.log)
      : { consume: async () => undefined },
    consents: new PrismaConsentStore(prisma),
    authorizationCodes: new PrismaAuthorizationCodeStore(prisma),
    pendingAuthorizations: new RedisHandleStore<PendingAuthorization>(redis, {
      namespace: 'pending-authorization',
      secretHashKey: env.secretHashKey,
      ttlSeconds: HANDLE_TTL_SECONDS,
    }),
    consentPrompts: new RedisHandleStore<ConsentPrompt>(redis, {
      namespace: 'consent-prompt',
      secretHashKey: env.secretHashKey,
      ttlSeconds: HANDLE_TTL_SECONDS,
    }),
    logoutPrompts: new RedisHandleStore<LogoutPrompt>(redis, {
      namespace: 'logout-prompt',
      secretHashKey: env.secretHashKey,
      ttlSeconds: HANDLE_TTL_SECONDS,
    }),
    pushedAuthorizations: new RedisHandleStore<PushedAuthorization>(redis, {
      namespace: 'pushed-authorization',
      secretHashKey: env.secretHashKey,
      ttlSeconds: PUSHED_AUTHORIZATION_TTL_SECONDS,
    }),
    dpopJtis: new RedisDpopJtiStore(redis),
    audit: auditOverGrpc(identityChannel.service(AuditService)),
    deviceAuthorization: env.deviceAuthorization,
    deviceGrants: new RedisDeviceGrantStore(redis),
    deviceVerifications: new RedisHandleStore<PendingDeviceVerification>(redis, {
      namespace: 'device-verification',
      secretHashKey: env.secretHashKey,
      ttlSeconds: HANDLE_TTL_SECONDS,
    }),
    deviceConsentPrompts: new RedisHandleStore<DeviceConsentPrompt>(redis, {
      namespace: 'device-consent-prompt',
      secretHashKey: env.secretHashKey,
      ttlSeconds: HANDLE_TTL_SECONDS,
    }),
    enterprise: env.enterprise.enabled
      ? openEnterpriseAssertions({
          trustedIssuers: env.enterprise.trustedIssuers,
          allowInsecureLoopback: env.enterprise.allowInsecureLoopback,
          redis,
          findUserByVerifiedEmail: findUserByVerifiedEmailOverGrpc(
            identityChannel.service(AccountLookupService),
          ),
        })
      : undefined,
    log: parts.log,
  };
}
