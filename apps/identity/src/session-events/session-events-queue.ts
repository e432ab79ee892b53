import {
  SESSION_EVENTS_QUEUE_NAME,
  SESSION_ENDED_JOB,
  sessionEndedJobOptions,
  sessionEventsQueuePrefix,
  type SessionEndedJob,
} from '@authz/shared/session-events';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';

export interface SessionEventsQueue {
  addSessionEnded(data: SessionEndedJob, outboxId: string): Promise<void>;
  close(): Promise<void>;
}

/** The producer side of @authz/shared/session-events; its own connection, as BullMQ needs. */
export function createSessionEventsQueue(redisUrl: string, redisKeyPrefix: string): SessionEventsQueue {
  const connection = new Redis(redisUrl, {
    maxRetriesPerRequest: null,
    connectionName: 'identity-session-events',
  });
  connection.on('error', () => undefined);
  const queue = new Queue(SESSION_EVENTS_QUEUE_NAME, {
    connection,
    prefix: sessionEventsQueuePrefix(redisKeyPrefix),
  });
  queue.on('error', () => undefined);
  return {
    async addSessionEnded(data, outboxId) {
      await queue.add(SESSION_ENDED_JOB, data, sessionEndedJobOptions(outboxId));
    },
    async close() {
      await queue.close().catch(() => undefined);
      await connection.quit().catch(() => connection.disconnect());
    },
  };
}
