import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

/** A cache that invalidation messages keep fresh (docs/decisions.md #28). */
export interface InvalidatedCache {
  readonly active: boolean;
  /** Subscribed (again): whatever was missed meanwhile is unknown, so start empty and serve. */
  activate(): void;
  /** Not subscribed: messages may be missed from now on, so keep nothing and answer nothing. */
  deactivate(): void;
  flush(): void;
  /** A message named this entry's key. */
  drop(key: string): void;
}

export interface InvalidationSubscription {
  /** Resolves once subscribed: at once while subscribed, else at the next subscription. */
  whenSubscribed(): Promise<void>;
  /** Stops listening and closes the connection; the cache stays bypassed. */
  close(): Promise<void>;
}

export interface SubscribeOptions {
  /** A connection of its own, made with `autoResubscribe: false`: it subscribes on every `ready`. */
  connection: Redis;
  channel: string;
  cache: InvalidatedCache;
  /** The message's member naming what changed: `clientId`, `userId`. */
  keyField: string;
  /** Names the cache in log lines: `client`, `user profile`. */
  subject: string;
  log: Logger;
}

/**
 * docs/decisions.md #28: a message drops the entry it names; every (re)subscription flushes
 * the cache and only then enables it; losing the connection disables it, since messages may be
 * missed from then on. Subscribing again is done here on every `ready`, so it is known when
 * the subscription is back.
 */
export function subscribeToInvalidations(options: SubscribeOptions): InvalidationSubscription {
  const { connection, channel, cache, keyField, subject, log } = options;
  let waiting: (() => void)[] = [];
  let closed = false;
  const subscribe = async () => {
    try {
      await connection.subscribe(channel);
      if (closed) return;
      cache.activate();
      for (const resolve of waiting.splice(0)) resolve();
    } catch (error) {
      log.warn(
        { err: error },
        `${subject} invalidations not subscribed: the ${subject} cache stays bypassed`,
      );
      // Reconnecting brings the next `ready`, hence the next attempt.
      if (!closed && connection.status === 'ready') connection.disconnect(true);
    }
  };
  const onReady = () => void subscribe();
  const onClose = () => cache.deactivate();
  const onMessage = (from: string, message: string) => {
    if (from !== channel) return;
    // A message that cannot be read may have named any entry: drop them all.
    const key = memberOf(message, keyField);
    if (key !== undefined) return cache.drop(key);
    log.warn(`unreadable ${subject} invalidation: the ${subject} cache is flushed`);
    cache.flush();
  };
  // Failures show as 'close'; an unhandled 'error' event would end the process.
  const onError = () => undefined;
  connection.on('ready', onReady).on('close', onClose).on('message', onMessage).on('error', onError);
  if (connection.status === 'ready') void subscribe();

  return {
    whenSubscribed: () =>
      cache.active ? Promise.resolve() : new Promise((resolve) => waiting.push(resolve)),
    async close() {
      closed = true;
      connection.off('ready', onReady).off('close', onClose).off('message', onMessage);
      cache.deactivate();
      waiting = [];
      await connection.quit().catch(() => connection.disconnect());
    },
  };
}

function memberOf(message: string, field: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(message);
    const value = (parsed as Record<string, unknown> | null)?.[field];
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}
