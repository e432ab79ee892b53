import { Queue, type JobsOptions } from 'bullmq';
import { Redis } from 'ioredis';

/**
 * The queue contract shared with apps/mailer-worker (docs/decisions.md #29): queue `mail` under
 * the BullMQ prefix `${REDIS_KEY_PREFIX}bull`, one job per outbox row.
 */
export const MAIL_QUEUE_NAME = 'mail';
export const VERIFICATION_EMAIL_JOB = 'verification-email';

export interface VerificationEmailJob {
  to: string;
  verifyUrl: string;
}

/** jobId = the outbox row id, so adding a row twice (relay restart, two replicas) is a no-op. */
export function mailJobOptions(outboxId: string): JobsOptions {
  return {
    jobId: outboxId,
    // The mailer-worker's capped-exponential strategy: 1 s doubling to 15 min, ~a day in all.
    attempts: 100,
    backoff: { type: 'capped-exponential', delay: 1000 },
    removeOnComplete: 1000,
    removeOnFail: 5000,
  };
}

export function mailQueuePrefix(redisKeyPrefix: string): string {
  return `${redisKeyPrefix}bull`;
}

export interface MailQueue {
  add(name: string, data: VerificationEmailJob, outboxId: string): Promise<void>;
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
