import { Redis, type RedisOptions } from 'ioredis';
import { traceCommands } from './traced-commands.js';

export interface RedisClientOptions {
  /** Key prefix: one per test file, or a namespace per feature. */
  keyPrefix?: string;
  /** Connection name shown by CLIENT LIST. */
  name?: string;
  /**
   * Fail commands at once while disconnected instead of queueing them, so callers that
   * must not wait (rate limits fail open, docs/decisions.md #23) get an error quickly.
   */
  failFast?: boolean;
}

export function createRedisClient(url: string, options: RedisClientOptions = {}): Redis {
  const redisOptions: RedisOptions = {
    lazyConnect: false,
    connectionName: options.name,
    // Reconnect forever with a capped backoff: the server coming back heals the service.
    retryStrategy: (attempt) => Math.min(attempt * 100, 2000),
    ...(options.keyPrefix ? { keyPrefix: options.keyPrefix } : {}),
    ...(options.failFast
      ? { enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: 1000, connectTimeout: 1000 }
      : {}),
  };
  const client = new Redis(url, redisOptions);
  // Errors surface on commands; an unhandled 'error' event would crash the process.
  client.on('error', () => undefined);
  return traceCommands(client);
}

/** Resolves once the client is ready (connected and past its ready check). */
export function whenReady(client: Redis): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => client.once('ready', () => resolve()));
}
