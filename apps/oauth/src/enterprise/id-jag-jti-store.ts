import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * RFC 7523 section 3 item 7: an ID-JAG's jti is used once. The first use claims
 * `id-jag-jti:<hash>` with SET NX until the assertion expires, shared by every replica; a
 * second claim fails. The key hashes issuer and jti, so an issuer-chosen jti cannot shape
 * Redis keys and two issuers' jtis never collide.
 */
export async function claimIdJagJti(
  redis: Redis,
  issuer: string,
  jti: string,
  ttlSeconds: number,
): Promise<boolean> {
  const digest = createHash('sha256').update(`${issuer}\n${jti}`).digest('hex');
  const result = await redis.set(`id-jag-jti:${digest}`, '1', 'EX', Math.max(1, ttlSeconds), 'NX');
  return result === 'OK';
}
