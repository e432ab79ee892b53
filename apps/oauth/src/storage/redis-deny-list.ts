import { ServiceUnavailableError } from '@authz/shared/errors';
import type { Redis } from 'ioredis';
import type { AccessTokenDenyList, UserCutOff } from '../protocol/access-token/deny-list.js';

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

  async cutOffUser(sub: string, cutOff: UserCutOff, ttlSeconds: number): Promise<void> {
    const value = JSON.stringify(cutOff);
    await this.run(() => this.redis.set(userKey(sub), value, 'EX', Math.max(1, ttlSeconds)));
  }

  async userCutOff(sub: string): Promise<UserCutOff | undefined> {
    return parseCutOff(await this.run(() => this.redis.get(userKey(sub))));
  }

  // One MGET instead of EXISTS and GET: one round trip and one write per token check.
  async standing(jti: string, sub: string): Promise<{ denied: boolean; cutOff: UserCutOff | undefined }> {
    const [denied, cutOff] = await this.run(() => this.redis.mget(key(jti), userKey(sub)));
    return { denied: denied !== null && denied !== undefined, cutOff: parseCutOff(cutOff ?? null) };
  }

  private async run<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (error) {
      throw new ServiceUnavailableError({ detail: 'deny-list unreachable', cause: error });
    }
  }
}

function parseCutOff(value: string | null): UserCutOff | undefined {
  if (value === null) return undefined;
  const parsed = JSON.parse(value) as { notBefore?: unknown; exceptSessionId?: unknown };
  // Unreadable: deny everything of the user rather than nothing (fails closed, docs/tokens.md #14).
  if (typeof parsed.notBefore !== 'number') return { notBefore: Number.MAX_SAFE_INTEGER };
  return {
    notBefore: parsed.notBefore,
    ...(typeof parsed.exceptSessionId === 'string' ? { exceptSessionId: parsed.exceptSessionId } : {}),
  };
}

function key(jti: string): string {
  return `oauth:denied-jti:${jti}`;
}

function userKey(sub: string): string {
  return `oauth:user-cutoff:${sub}`;
}
