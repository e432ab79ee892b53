import { createLogger } from '@authz/shared/logger';
import { Redis } from 'ioredis';
import { buildGatewayApp, type GatewayApp, type GatewayDeps } from '../app.js';
import { loadGatewayEnv } from '../config/env.js';

/**
 * The gateway as buildGatewayApp assembles it from the default settings, with no Redis and no
 * service running: its Redis client is closed before its first command (a rate limit check
 * then fails open at once) and gRPC channels connect only on a call, which nothing here makes.
 * The issuer is the default, http://localhost:3000, so the document does not depend on the
 * environment it is written in.
 */
export async function buildOfflineGateway(options: Pick<GatewayDeps, 'onRoute'> = {}): Promise<GatewayApp> {
  const env = loadGatewayEnv({ REDIS_URL: 'redis://127.0.0.1:6379', LOG_LEVEL: 'silent' });
  const redis = new Redis(env.redisUrl, { lazyConnect: true, enableOfflineQueue: false });
  redis.on('error', () => undefined);
  redis.disconnect();
  const logger = createLogger({ service: 'gateway', level: env.logLevel });
  const gateway = await buildGatewayApp({ env, logger, redis, ...options });
  await gateway.app.ready();
  return gateway;
}
