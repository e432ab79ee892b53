import type { Redis } from 'ioredis';
import type { GatewayEnv } from './config/env.js';
import { createGatewayMetrics, type GatewayMetrics } from './metrics/gateway-metrics.js';
import { Upstreams } from './plugins/upstreams.js';

/** Everything the route plugins are handed, built once per app (docs/conventions.md #6). */
export interface Registry {
  /** Keys carry the gateway's REDIS_KEY_PREFIX (ioredis keyPrefix). */
  redis: Redis;
  /** One gRPC channel per service the gateway calls. */
  upstreams: Upstreams;
  metrics: GatewayMetrics;
}

/** The registry over the Redis client app.ts opened and warmed up (Fastify's onClose closes both). */
export function createRegistry(env: GatewayEnv, parts: { redis: Redis }): Registry {
  return {
    redis: parts.redis,
    upstreams: new Upstreams(env.services),
    metrics: createGatewayMetrics(),
  };
}
