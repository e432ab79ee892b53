import { RateLimitedError } from '@authz/shared/errors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { addressKeys } from './address-keys.js';

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
    /**
     * false: never limited (health, metrics); 'per-client': no per-address budget, the
     * endpoints a client authenticates to, limited per client by oauth instead
     * (docs/security.md #11); absent: the default per-address budget.
     */
    rateLimit?: RouteRateLimit | false | 'per-client';
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
      if (outcome instanceof RateLimiterRes) throw rateLimited(outcome);
      this.onStoreError(outcome);
    }
  }

  /**
   * Counts one request from `ip` against `bucket`: an IPv6 address under its /64 and, with a
   * larger budget, its /48 (docs/security.md #11).
   */
  async consumeAddress(bucket: string, budget: RateLimitBudget, ip: string): Promise<void> {
    for (const { key, factor } of addressKeys(ip)) {
      await this.consume(bucket, { ...budget, points: budget.points * factor }, key);
    }
  }

  /**
   * Refuses `ip` when it has already spent `bucket`, without counting this request: for
   * budgets of failures, counted only once the failure is known.
   */
  async checkAddress(bucket: string, budget: RateLimitBudget, ip: string): Promise<void> {
    if (!this.enabled) return;
    for (const { key, factor } of addressKeys(ip)) {
      try {
        const spent = await this.limiter(bucket, { ...budget, points: budget.points * factor }).get(key);
        if (spent && spent.consumedPoints >= budget.points * factor) throw rateLimited(spent);
      } catch (error) {
        if (error instanceof RateLimitedError) throw error;
        this.onStoreError(error);
      }
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

function rateLimited(outcome: RateLimiterRes): RateLimitedError {
  return new RateLimitedError({ attributes: { retryAfterSeconds: String(outcome.msBeforeNext / 1000) } });
}

export interface RateLimitPluginOptions {
  redis: Redis;
  enabled: boolean;
  /** Every route without its own setting: generous, for documents and bearer-token routes. */
  defaultBudget: RateLimitBudget;
  /** Requests matching no route: cheap to refuse, so a tighter budget of their own. */
  notFoundBudget: RateLimitBudget;
}

/**
 * Per-address limits before the body is even read (docs/security.md #11); routes may add
 * per-account limits themselves.
 */
export const rateLimitPlugin = fp<RateLimitPluginOptions>(
  async (app: FastifyInstance, { redis, enabled, defaultBudget, notFoundBudget }) => {
    const limiter = new RateLimiter(redis, enabled, (error) =>
      app.log.warn({ err: error }, 'rate limit store unavailable; failing open'),
    );
    app.decorate('rateLimiter', limiter);
    // Turned off (RATE_LIMIT_ENABLED=false), no hook at all: it would only cost a promise.
    if (!enabled) return;
    app.addHook('onRequest', async (request: FastifyRequest) => {
      if (request.is404) {
        await limiter.consumeAddress('not-found', notFoundBudget, request.ip);
        return;
      }
      const setting = request.routeOptions.config?.rateLimit;
      if (setting === false || setting === 'per-client') return;
      const route = setting ?? { bucket: 'default', ...defaultBudget };
      await limiter.consumeAddress(route.bucket, route, request.ip);
    });
  },
  { name: 'rate-limit' },
);
