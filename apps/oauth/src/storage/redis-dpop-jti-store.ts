import { createHash } from 'node:crypto';
import { ServiceUnavailableError } from '@authz/shared/errors';
import type { Redis } from 'ioredis';
import type { DpopJtiStore } from '../protocol/dpop/dpop-jti-store.js';

/**
 * RFC 9449 section 11.1 in Redis: SET NX of `oauth:dpop-jti:<hash>` for the proof's lifetime, so
 * replicas share one replay cache. The key hashes the key thumbprint and jti, so a client-chosen
 * jti cannot shape Redis keys.
 */
export class RedisDpopJtiStore implements DpopJtiStore {
  constructor(private readonly redis: Redis) {}

  async claim(jkt: string, jti: string, ttlSeconds: number): Promise<boolean> {
    const digest = createHash('sha256').update(`${jkt}\n${jti}`).digest('base64url');
    try {
      return (await this.redis.set(`oauth:dpop-jti:${digest}`, '1', 'EX', ttlSeconds, 'NX')) === 'OK';
    } catch (error) {
      throw new ServiceUnavailableError({ detail: 'DPoP replay cache unreachable', cause: error });
    }
  }
}
