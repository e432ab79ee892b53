import { AccountRecoveryService } from '@authz/proto/identity/v1/account_recovery';
import { AccountService } from '@authz/proto/identity/v1/accounts';
import { FederationService } from '@authz/proto/identity/v1/federation';
import { AdminService } from '@authz/proto/identity/v1/admin';
import { SecondFactorService } from '@authz/proto/identity/v1/second_factors';
import { AccountLookupService, AuditService, IdentityService } from '@authz/proto/identity/v1/identity';
import { createPrismaAdapter } from '@authz/shared/database';
import type { Logger } from '@authz/shared/logger';
import { createRedisClient } from '@authz/shared/redis';
import {
  createServiceApp,
  databaseDependency,
  redisDependency,
  type ServiceApp,
} from '@authz/shared/service';
import type { IdentityEnv } from './config/env.js';
import { PrismaClient } from './generated/prisma/client.js';
import { createMailQueue } from './outbox/mail-queue.js';
import { outboxKey } from './outbox/outbox-payload.js';
import { createOutboxRelay } from './outbox/outbox-relay.js';
import { createRegistry } from './registry.js';
import { accountRecoveryServiceImplementation } from './rpc/account-recovery-service.js';
import { accountLookupServiceImplementation } from './rpc/account-lookup-service.js';
import { accountServiceImplementation } from './rpc/account-service.js';
import { adminServiceImplementation } from './rpc/admin-service.js';
import { auditServiceImplementation } from './rpc/audit-service.js';
import { federationServiceImplementation } from './rpc/federation-service.js';
import { identityServiceImplementation } from './rpc/identity-service.js';
import { secondFactorServiceImplementation } from './rpc/second-factor-service.js';
import { createSessionEndRelay } from './session-events/session-end-relay.js';
import { createSessionEventsQueue } from './session-events/session-events-queue.js';
import { PrismaMailOutbox } from './storage/prisma-mail-outbox.js';
import { PrismaSessionEndOutbox } from './storage/prisma-session-end-outbox.js';

export interface IdentityDeps {
  env: IdentityEnv;
  logger: Logger;
}

/** Builds the identity service: accounts, credentials, realms, sessions, email verification, developers, audit log. */
export async function buildIdentityApp({ env, logger }: IdentityDeps): Promise<ServiceApp> {
  const database = createPrismaAdapter(env.databaseUrl, logger);
  const prisma = new PrismaClient({ adapter: database });
  const redis = createRedisClient(env.redisUrl, {
    name: 'identity',
    failFast: true,
    ...(env.redisKeyPrefix ? { keyPrefix: env.redisKeyPrefix } : {}),
  });
  const app = await createServiceApp('identity', logger, {
    database: databaseDependency(prisma, database),
    cache: redisDependency(redis),
  });
  const queue = createMailQueue(env.redisUrl, env.redisKeyPrefix);
  const relay = createOutboxRelay({
    outbox: new PrismaMailOutbox(prisma),
    queue,
    outboxKey: outboxKey(env.secretHashKey),
    log: logger.child({ component: 'mail-outbox-relay' }),
    pollIntervalMs: env.outboxPollIntervalMs,
  });
  const sessionEvents = createSessionEventsQueue(env.redisUrl, env.redisKeyPrefix);
  const sessionEndRelay = createSessionEndRelay({
    outbox: new PrismaSessionEndOutbox(prisma),
    queue: sessionEvents,
    log: logger.child({ component: 'session-end-relay' }),
    pollIntervalMs: env.outboxPollIntervalMs,
  });
  try {
    const registry = await createRegistry(env, {
      prisma,
      redis,
      log: logger,
      onMailQueued: relay.kick,
      onSessionEnded: sessionEndRelay.kick,
    });
    app.server
      .addService(IdentityService, identityServiceImplementation(registry))
      .addService(AuditService, auditServiceImplementation(registry))
      .addService(AccountLookupService, accountLookupServiceImplementation(registry))
      .addService(AccountRecoveryService, accountRecoveryServiceImplementation(registry))
      .addService(AccountService, accountServiceImplementation(registry))
      .addService(FederationService, federationServiceImplementation(registry))
      .addService(AdminService, adminServiceImplementation(registry))
      .addService(SecondFactorService, secondFactorServiceImplementation(registry));
  } catch (error) {
    await queue.close();
    await sessionEvents.close();
    await app.close();
    throw error;
  }
  relay.start();
  sessionEndRelay.start();
  return {
    server: app.server,
    metrics: app.metrics,
    close: async () => {
      await relay.stop();
      await sessionEndRelay.stop();
      await queue.close();
      await sessionEvents.close();
      await app.close();
    },
  };
}

export { loadIdentityEnv, type IdentityEnv } from './config/env.js';
