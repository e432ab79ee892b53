import { MAIL_QUEUE_NAME, mailJobOptions, mailQueuePrefix, type MailJobData } from '@authz/shared/mail';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';

// The queue itself (name, prefix, job data, options) is the shared contract of docs/mail.md.

export interface MailQueue {
  add(name: string, data: MailJobData, outboxId: string): Promise<void>;
  close(): Promise<void>;
}

/** BullMQ needs its own connection that retries commands forever (maxRetriesPerRequest: null). */
export function createMailQueue(redisUrl: string, redisKeyPrefix: string): MailQueue {
  const connection = new Redis(redisUrl, {
    maxRetriesPerRequest: null,
    connectionName: 'identity-mail-queue',
  });
  connection.on('error', () => undefined);
  const queue = new Queue(MAIL_QUEUE_NAME, { connection, prefix: mailQueuePrefix(redisKeyPrefix) });
  queue.on('error', () => undefined);
  return {
    async add(name, data, outboxId) {
      await queue.add(name, data, mailJobOptions(outboxId));
    },
    async close() {
      await queue.close().catch(() => undefined);
      await connection.quit().catch(() => connection.disconnect());
    },
  };
}
