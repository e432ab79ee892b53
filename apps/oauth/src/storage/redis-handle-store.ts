import { randomBytes } from 'node:crypto';
import { keyedHash } from '@authz/shared/crypto';
import { InternalError, ServiceUnavailableError } from '@authz/shared/errors';
import type { Redis } from 'ioredis';
import type { HandleStore } from '../protocol/authorize/handle-store.js';

// 256 random bits, base64url without padding.
const HANDLE = /^[A-Za-z0-9_-]{43}$/;

export interface RedisHandleStoreOptions {
  /** Part of the key: `oauth:<namespace>:<keyed hash of the handle>`. */
  namespace: string;
  secretHashKey: Buffer;
  ttlSeconds: number;
}

/**
 * A HandleStore in Redis: one JSON value per handle, expiring with it; GETDEL makes a take
 * single use. The key holds HMAC-SHA256 of the handle under SECRET_HASH_KEY, so a read of Redis
 * yields no usable handle. The client's keyPrefix (REDIS_KEY_PREFIX) namespaces the keys.
 */
export class RedisHandleStore<T> implements HandleStore<T> {
  constructor(
    private readonly redis: Redis,
    private readonly options: RedisHandleStoreOptions,
  ) {}

  async create(value: T): Promise<string> {
    const handle = randomBytes(32).toString('base64url');
    const stored = await this.run(() =>
      this.redis.set(this.key(handle), JSON.stringify(value), 'EX', this.options.ttlSeconds, 'NX'),
    );
    // NX: a handle is never reused, even in the (2^-256) case of a collision.
    if (stored !== 'OK') throw new InternalError({ detail: `${this.options.namespace} handle collision` });
    return handle;
  }

  async peek(handle: string): Promise<T | undefined> {
    if (!HANDLE.test(handle)) return undefined;
    return parse<T>(await this.run(() => this.redis.get(this.key(handle))));
  }

  async take(handle: string): Promise<T | undefined> {
    if (!HANDLE.test(handle)) return undefined;
    return parse<T>(await this.run(() => this.redis.getdel(this.key(handle))));
  }

  private key(handle: string): string {
    return `oauth:${this.options.namespace}:${keyedHash(this.options.secretHashKey, handle)}`;
  }

  private async run<R>(command: () => Promise<R>): Promise<R> {
    try {
      return await command();
    } catch (error) {
      throw new ServiceUnavailableError({
        detail: `${this.options.namespace} store unreachable`,
        cause: error,
      });
    }
  }
}

function parse<T>(raw: string | null): T | undefined {
  return raw === null ? undefined : (JSON.parse(raw) as T);
}
