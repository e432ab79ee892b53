import { RateLimitedError } from '@authz/shared/errors';
import type { Logger } from '@authz/shared/logger';
import { outsideTraces } from '@authz/shared/telemetry/spans';
import type { Redis } from 'ioredis';
import type { ClientRequestBudget } from '../protocol/client-authentication/client-request-budget.js';

export interface ClientBudgetSettings {
  points: number;
  durationSeconds: number;
  /** How often the counts of this replica are added to the shared ones, in milliseconds. */
  flushIntervalMs?: number;
}

interface ClientWindow {
  /** Which fixed window: the time divided by its duration, the same on every replica. */
  window: number;
  /** The shared count as Redis last answered it, this replica's flushed requests included. */
  shared: number;
  /** This replica's requests not yet added to Redis. */
  pending: number;
  /** Requests of a flush Redis has not answered yet: still counted, or a request arriving
   * while the flush waits would find them in neither `shared` nor `pending`. */
  inFlight: number;
}

const DEFAULT_FLUSH_INTERVAL_MS = 50;

/**
 * The per-client budget (docs/security.md #11), shared by every oauth replica through Redis
 * but not asked of Redis on each request: a round trip per token would cost more than the
 * budget is worth (docs/performance.md). Each replica counts locally and adds its counts to
 * the window's key every `flushIntervalMs`, learning the total in return; so a client may
 * overshoot by what the other replicas served in one interval. Windows are aligned on the
 * clock, so every replica names the same key without coordinating. Like the gateway's budgets
 * it fails open (docs/decisions.md #23): counts that could not be written are dropped.
 */
export class RedisClientRequestBudget implements ClientRequestBudget {
  private readonly clients = new Map<string, ClientWindow>();
  private flushing: NodeJS.Timeout | undefined;
  private readonly durationMs: number;

  constructor(
    private readonly redis: Redis,
    private readonly settings: ClientBudgetSettings,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.durationMs = settings.durationSeconds * 1000;
  }

  async consume(clientId: string): Promise<void> {
    // Fails open while Redis is unreachable, local counts included (docs/decisions.md #23).
    if (this.redis.status !== 'ready') return;
    const now = this.now();
    const window = Math.floor(now / this.durationMs);
    let state = this.clients.get(clientId);
    if (!state || state.window !== window) {
      state = { window, shared: 0, pending: 0, inFlight: 0 };
      this.clients.set(clientId, state);
    }
    if (state.shared + state.inFlight + state.pending >= this.settings.points) {
      const retryAfterMs = (window + 1) * this.durationMs - now;
      throw new RateLimitedError({
        detail: `client ${clientId} over its request budget`,
        attributes: { retryAfterSeconds: String(retryAfterMs / 1000) },
      });
    }
    state.pending += 1;
    // The flush writes every client's counts, so it belongs to no request's trace.
    this.flushing ??= outsideTraces(() =>
      setTimeout(() => void this.flush(), this.settings.flushIntervalMs ?? DEFAULT_FLUSH_INTERVAL_MS),
    );
    // Never holds the process open: unflushed counts of a stopping replica are not worth a wait.
    this.flushing.unref();
  }

  /** Adds this replica's pending counts to Redis and learns each window's shared total. */
  async flush(): Promise<void> {
    this.flushing = undefined;
    const current = Math.floor(this.now() / this.durationMs);
    const batch: [string, ClientWindow, number][] = [];
    for (const [clientId, state] of this.clients) {
      if (state.window !== current) {
        this.clients.delete(clientId);
        continue;
      }
      if (state.pending === 0) continue;
      batch.push([clientId, state, state.pending]);
      state.inFlight += state.pending;
      state.pending = 0;
    }
    if (batch.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const [clientId, state, count] of batch) {
      const key = `rl:client:${clientId}:${state.window}`;
      pipeline.incrby(key, count).pexpire(key, this.durationMs * 2);
    }
    try {
      const results = (await pipeline.exec()) ?? [];
      batch.forEach(([, state], index) => {
        const [error, total] = results[index * 2] ?? [];
        if (!error && typeof total === 'number') state.shared = Math.max(state.shared, total);
      });
    } catch (error) {
      this.log.warn({ err: error }, 'client budget store unavailable; failing open');
    } finally {
      // Written or dropped, these requests are no longer waiting on Redis.
      for (const [, state, count] of batch) state.inFlight -= count;
    }
  }
}
