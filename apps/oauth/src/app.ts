import { createPrismaAdapter } from '@authz/shared/database';
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

export interface OAuthDeps {
  env: OAuthEnv;
  logger: Logger;
}

/** Builds the oauth service: authorize, token, introspection, revocation, UserInfo, discovery, JWKS, signing keys. */
export async function buildOAuthApp({ env, logger }: OAuthDeps): Promise<ServiceApp> {
  const prisma = new PrismaClient({ adapter: createPrismaAdapter(env.databaseUrl, logger) });
  const redis = createRedisClient(env.redisUrl, { name: 'oauth', failFast: true });
  return createServiceApp('oauth', logger, {
    database: databaseDependency(prisma),
    cache: redisDependency(redis),
  });
}

export { loadOAuthEnv, type OAuthEnv } from './config/env.js';
