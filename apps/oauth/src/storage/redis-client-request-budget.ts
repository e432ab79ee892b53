import { RateLimitedError } from '@authz/shared/errors';
import type { Logger } from '@authz/shared/logger';
import type { Redis } from 'ioredis';
import type { ClientRequestBudget } from '../protocol/client-authentication/client-request-budget.js';

// One fixed window per client: the count, and the milliseconds left in the window.
const CONSUME = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return { count, redis.call('PTTL', KEYS[1]) }
`;

export interface ClientBudgetSettings {
  points: number;
  durationSeconds: number;
}

/**
 * The per-client budget in Redis, shared by every oauth replica (docs/security.md #11). Like
 * the gateway's budgets it fails open (docs/decisions.md #23): while Redis is unreachable the
 * request is served.
 */
export class RedisClientRequestBudget implements ClientRequestBudget {
  constructor(
    private readonly redis: Redis,
    private readonly settings: ClientBudgetSettings,
    private readonly log: Logger,
  ) {}

  async consume(clientId: string): Promise<void> {
    let result: [number, number];
    try {
      result = (await this.redis.eval(
        CONSUME,
        1,
        `rl:client:${clientId}`,
        String(this.settings.durationSeconds * 1000),
      )) as [number, number];
    } catch (error) {
      this.log.warn({ err: error }, 'client budget store unavailable; failing open');
      return;
    }
    const [count, msLeft] = result;
    if (count <= this.settings.points) return;
    const retryAfterMs = msLeft > 0 ? msLeft : this.settings.durationSeconds * 1000;
    throw new RateLimitedError({
      detail: `client ${clientId} over its request budget`,
      attributes: { retryAfterSeconds: String(retryAfterMs / 1000) },
    });
  }
}
