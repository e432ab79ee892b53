import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

export interface InvalidationPublisher<Message extends Record<string, string>> {
  /** Tells every cache listening on the channel that what `message` names changed. */
  publish(message: Message): Promise<void>;
}

/**
 * Publishes a change as JSON after it has committed (docs/decisions.md #28). A lost message is
 * tolerated by design (subscribers flush on resubscription and expire entries quickly), so a
 * Redis failure is logged, never turned into a failed request.
 *
 * PUBLISH answers before the subscribers' copies are surely on their way: Redis queues the
 * copies and the answer in one turn of its loop and writes the answer first, so a Redis
 * paused between those writes would let the caller answer its client, and that client ask
 * again, before any subscriber heard of the change. A PING after the answer closes that gap:
 * Redis reads it only once every write of the previous turn is done, so when it answers,
 * each subscriber's copy is in that subscriber's socket, ahead of any later request.
 */
export function createInvalidationPublisher<Message extends Record<string, string>>(options: {
  redis: Redis;
  channel: string;
  /** Names what changed in the log line of a failure: `client`, `user`. */
  subject: string;
  log: Logger;
}): InvalidationPublisher<Message> {
  const { redis, channel, subject, log } = options;
  return {
    async publish(message) {
      try {
        await redis.publish(channel, JSON.stringify(message));
        await redis.ping();
      } catch (error) {
        const fields: Record<string, unknown> = { err: error, ...message };
        log.warn(fields, `${subject} invalidation not published`);
      }
    },
  };
}
