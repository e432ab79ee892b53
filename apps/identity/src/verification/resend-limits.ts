import { keyedHash } from '@authz/shared/crypto';
import type { Logger } from '@authz/shared/logger';
import type { Redis } from 'ioredis';

export interface ResendLimits {
  minIntervalSeconds: number;
  maxPerWindow: number;
  windowSeconds: number;
}

// KEYS: last-send marker, window counter. ARGV: interval, cap, window.
// Returns 0 when allowed (and counts it), else the seconds to wait, rounded up: TTL rounds
// to the nearest second, which would end an interval up to half a second early.
const CHECK_AND_COUNT = `
local wait = redis.call('PTTL', KEYS[1])
if wait > 0 then return math.ceil(wait / 1000) end
local count = tonumber(redis.call('GET', KEYS[2]) or '0')
if count >= tonumber(ARGV[2]) then
  local left = math.ceil(redis.call('PTTL', KEYS[2]) / 1000)
  if left < 1 then left = 1 end
  return left
end
redis.call('SET', KEYS[1], '1', 'EX', ARGV[1])
if redis.call('INCR', KEYS[2]) == 1 then redis.call('EXPIRE', KEYS[2], ARGV[3]) end
return 0`;

/**
 * interface.md 8: per-address minimum interval plus a per-window cap, for every address whether it
 * exists or not (a 429 must not reveal accounts). Keys hold a keyed hash of the lower-cased
 * address, never the address. Returns the seconds to wait, or 0 when the call may proceed.
 * Like every limit of the suite it fails open while Redis is down (docs/architecture.md #7).
 */
export async function takeResendSlot(
  deps: { redis: Redis; secretHashKey: Buffer; limits: ResendLimits; log: Logger },
  emailKey: string,
): Promise<number> {
  const subject = keyedHash(deps.secretHashKey, `resend-verification:${emailKey}`);
  const { minIntervalSeconds, maxPerWindow, windowSeconds } = deps.limits;
  try {
    const wait = await deps.redis.eval(
      CHECK_AND_COUNT,
      2,
      `identity:resend:last:${subject}`,
      `identity:resend:count:${subject}`,
      minIntervalSeconds,
      maxPerWindow,
      windowSeconds,
    );
    return Number(wait);
  } catch (error) {
    deps.log.warn({ err: error }, 'resend-verification limit unavailable; allowing');
    return 0;
  }
}
