import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * RFC 7523 section 3 item 7: a client assertion's jti is used once. The first use claims
 * `assertion-jti:<hash>` with SET NX until the assertion expires, shared by every replica;
 * a second claim fails. The key is a hash, so a client-chosen jti cannot shape Redis keys.
 */
export async function claimAssertionJti(
  redis: Redis,
  clientId: string,
  jti: string,
  ttlSeconds: number,
): Promise<boolean> {
  const digest = createHash('sha256').update(`${clientId}\n${jti}`).digest('hex');
  const result = await redis.set(`assertion-jti:${digest}`, '1', 'EX', Math.max(1, ttlSeconds), 'NX');
  return result === 'OK';
}
