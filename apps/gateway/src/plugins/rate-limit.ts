import { RateLimitedError } from '@authz/shared/errors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

/** A named budget: `points` requests per `durationSeconds` for one key (an IP, an account). */
export interface RateLimitBudget {
  points: number;
  durationSeconds: number;
}

export interface RouteRateLimit extends RateLimitBudget {
  /** Shared by every route naming it, e.g. one budget for all client-creating routes. */
  bucket: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: never limited (health, metrics); absent: the default per-IP budget. */
    rateLimit?: RouteRateLimit | false;
  }
  interface FastifyInstance {
    rateLimiter: RateLimiter;
  }
}

/**
 * Fixed-window counters in Redis, so every gateway replica shares one budget. Limits fail
 * open: while Redis is unreachable requests pass (docs/decisions.md #23) rather than the whole
 * service going down with the cache.
 */
export class RateLimiter {
  private readonly limiters = new Map<string, RateLimiterRedis>();

  constructor(
    private readonly redis: Redis,
    private readonly enabled: boolean,
    private readonly onStoreError: (error: unknown) => void,
  ) {}

  /** Counts one request against `bucket` for `key`; throws RateLimitedError when over. */
  async consume(bucket: string, budget: RateLimitBudget, key: string): Promise<void> {
    if (!this.enabled) return;
    try {
      await this.limiter(bucket, budget).consume(key);
    } catch (outcome) {
      if (outcome instanceof RateLimiterRes) {
        throw new RateLimitedError({
          attributes: { retryAfterSeconds: String(outcome.msBeforeNext / 1000) },
        });
      }
      this.onStoreError(outcome);
    }
  }

  /** Remembers `key` under `bucket` for `ttlSeconds` (e.g. an address an account signed in from). */
  async mark(bucket: string, key: string, ttlSeconds: number): Promise<void> {
    if (!this.enabled) return;
    try {
      await this.redis.set(`rl:${bucket}:${key}`, '1', 'EX', ttlSeconds);
    } catch (error) {
      this.onStoreError(error);
    }
  }

  /** Was `key` marked under `bucket` and not expired? False while Redis is unreachable. */
  async isMarked(bucket: string, key: string): Promise<boolean> {
    if (!this.enabled) return false;
    try {
      return (await this.redis.exists(`rl:${bucket}:${key}`)) === 1;
    } catch (error) {
      this.onStoreError(error);
      return false;
    }
  }

  private limiter(bucket: string, budget: RateLimitBudget): RateLimiterRedis {
    const name = `${bucket}:${budget.points}:${budget.durationSeconds}`;
    let limiter = this.limiters.get(name);
    if (!limiter) {
      limiter = new RateLimiterRedis({
        storeClient: this.redis,
        keyPrefix: `rl:${bucket}`,
        points: budget.points,
        duration: budget.durationSeconds,
        rejectIfRedisNotReady: true,
      });
      this.limiters.set(name, limiter);
    }
    return limiter;
  }
}

export interface RateLimitPluginOptions {
  redis: Redis;
  enabled: boolean;
  defaultBudget: RateLimitBudget;
}

/** Per-IP limits before the body is even read; routes may add per-account limits themselves. */
export const rateLimitPlugin = fp<RateLimitPluginOptions>(
  async (app: FastifyInstance, { redis, enabled, defaultBudget }) => {
    const limiter = new RateLimiter(redis, enabled, (error) =>
      app.log.warn({ err: error }, 'rate limit store unavailable; failing open'),
    );
    app.decorate('rateLimiter', limiter);
    // Turned off (RATE_LIMIT_ENABLED=false), no hook at all: it would only cost a promise.
    if (!enabled) return;
    app.addHook('onRequest', async (request: FastifyRequest) => {
      const setting = request.routeOptions.config?.rateLimit;
      if (setting === false) return;
      const route = setting ?? { bucket: 'default', ...defaultBudget };
      await limiter.consume(route.bucket, route, `ip:${request.ip}`);
    });
  },
  { name: 'rate-limit' },
);
