import { ServiceUnavailableError } from '@authz/shared/errors';
import type { Redis } from 'ioredis';
import type { AccessTokenDenyList } from '../protocol/access-token/deny-list.js';

/**
 * The access-token deny-list in Redis (docs/architecture.md "Data and secrets"): one key per jti,
 * expiring with the token. The client's keyPrefix (REDIS_KEY_PREFIX) namespaces the keys.
 * Fails closed: while Redis is unreachable no token verifies.
 */
export class RedisDenyList implements AccessTokenDenyList {
  constructor(private readonly redis: Redis) {}

  async deny(jti: string, expiresAt: number): Promise<boolean> {
    const ttl = Math.max(1, expiresAt - Math.floor(Date.now() / 1000));
    const result = await this.run(() => this.redis.set(key(jti), '1', 'EX', ttl, 'NX'));
    return result === 'OK';
  }

  async isDenied(jti: string): Promise<boolean> {
    return (await this.run(() => this.redis.exists(key(jti)))) === 1;
  }

  private async run<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (error) {
      throw new ServiceUnavailableError({ detail: 'deny-list unreachable', cause: error });
    }
  }
}

function key(jti: string): string {
  return `oauth:denied-jti:${jti}`;
}
