import type { Logger } from '@authz/shared/logger';
import type { Redis } from 'ioredis';
import type { AuthenticationCache } from './authentication-cache.js';

/**
 * The clients service's channel (docs/clients.md #8). ioredis applies keyPrefix to keys only,
 * never to channel names, so the prefix is written out here.
 */
export function clientInvalidationChannel(redisKeyPrefix: string): string {
  return `${redisKeyPrefix}clients:invalidations`;
}

export interface ClientInvalidationSubscription {
  /** Resolves once subscribed: at once while subscribed, else at the next subscription. */
  whenSubscribed(): Promise<void>;
  /** Stops listening and closes the connection; the cache stays bypassed. */
  close(): Promise<void>;
}

export interface SubscribeOptions {
  /** A connection of its own: a subscribed connection can run nothing else. */
  connection: Redis;
  channel: string;
  cache: AuthenticationCache;
  log: Logger;
}

/**
 * docs/decisions.md #28: a message `{ clientId, reason }` drops that client's cached
 * authentications; every (re)subscription flushes the cache and only then enables it; losing
 * the connection disables it, since messages may be missed from then on. Subscribing again is
 * done here on every `ready`, so it is known when the subscription is back.
 */
export function subscribeToClientInvalidations({
  connection,
  channel,
  cache,
  log,
}: SubscribeOptions): ClientInvalidationSubscription {
  let waiting: (() => void)[] = [];
  let closed = false;
  const subscribe = async () => {
    try {
      await connection.subscribe(channel);
      if (closed) return;
      cache.activate();
      for (const resolve of waiting.splice(0)) resolve();
    } catch (error) {
      log.warn({ err: error }, 'client invalidations not subscribed: the client cache stays bypassed');
      // Reconnecting brings the next `ready`, hence the next attempt.
      if (!closed && connection.status === 'ready') connection.disconnect(true);
    }
  };
  const onReady = () => void subscribe();
  const onClose = () => cache.deactivate();
  const onMessage = (from: string, message: string) => {
    if (from === channel) invalidate(cache, message, log);
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

// A message that cannot be read may have named any client: drop them all.
function invalidate(cache: AuthenticationCache, message: string, log: Logger): void {
  const clientId = clientIdOf(message);
  if (clientId !== undefined) return cache.dropClient(clientId);
  log.warn('unreadable client invalidation: the client cache is flushed');
  cache.flush();
}

function clientIdOf(message: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(message);
    const clientId = (parsed as { clientId?: unknown } | null)?.clientId;
    return typeof clientId === 'string' ? clientId : undefined;
  } catch {
    return undefined;
  }
}
