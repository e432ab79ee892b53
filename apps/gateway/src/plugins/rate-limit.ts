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

/** Bounds the memory of addresses refused for their failures. */
const MAX_BLOCKED = 10_000;

/**
 * Fixed-window counters in Redis, so every gateway replica shares one budget. Limits fail
 * open: while Redis is unreachable requests pass (docs/decisions.md #23) rather than the whole
 * service going down with the cache.
 */
export class RateLimiter {
  private readonly limiters = new Map<string, RateLimiterRedis>();
  /** Addresses that spent a budget of failures, until when (`countFailure`). */
  private readonly blocked = new Map<string, number>();

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
   * Counts one failure of `ip` against `bucket`; once the budget is spent, this replica refuses
   * the address (`checkAddress`) until the window ends.
   */
  async countFailure(bucket: string, budget: RateLimitBudget, ip: string): Promise<void> {
    if (!this.enabled) return;
    for (const { key, factor } of addressKeys(ip)) {
      let spent: RateLimiterRes;
      try {
        spent = await this.limiter(bucket, { ...budget, points: budget.points * factor }).consume(key);
      } catch (outcome) {
        if (!(outcome instanceof RateLimiterRes)) {
          this.onStoreError(outcome);
          continue;
        }
        spent = outcome;
      }
      if (spent.remainingPoints <= 0) this.block(`${bucket}:${key}`, spent.msBeforeNext);
    }
  }

  /**
   * Refuses `ip` when this replica saw it spend `bucket` (`countFailure`). Asked of memory, not
   * of Redis: the endpoints it guards are the hottest, and a round trip on each request would
   * cost them more than the budget is worth (docs/performance.md). Another replica learns of a
   * spent budget at its own next failure from that address, so each replica lets at most one
   * more guess through (docs/security.md #11).
   */
  checkAddress(bucket: string, ip: string): void {
    if (!this.enabled || this.blocked.size === 0) return;
    const now = Date.now();
    for (const { key } of addressKeys(ip)) {
      const until = this.blocked.get(`${bucket}:${key}`);
      if (until === undefined) continue;
      if (until <= now) {
        this.blocked.delete(`${bucket}:${key}`);
        continue;
      }
      throw new RateLimitedError({ attributes: { retryAfterSeconds: String((until - now) / 1000) } });
    }
  }

  private block(name: string, msBeforeNext: number): void {
    if (this.blocked.size >= MAX_BLOCKED) {
      const now = Date.now();
      for (const [entry, until] of this.blocked) if (until <= now) this.blocked.delete(entry);
      // Still full: the oldest entries go first; their addresses are counted in Redis anyway.
      for (const entry of this.blocked.keys()) {
        if (this.blocked.size < MAX_BLOCKED) break;
        this.blocked.delete(entry);
      }
    }
    this.blocked.set(name, Date.now() + msBeforeNext);
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
