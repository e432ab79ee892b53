import {
  SESSION_EVENTS_QUEUE_NAME,
  SESSION_ENDED_JOB,
  sessionEndedJobSchema,
  sessionEventsQueuePrefix,
} from '@authz/shared/session-events';
import { Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { handleSessionEnded, type SessionEndedDeps } from '../protocol/session-end/session-ended.js';

export interface SessionEventsWorker {
  close(): Promise<void>;
}

/**
 * The consumer of identity's session-events queue (@authz/shared/session-events): every
 * session end, whatever ended it, is handled once here (interface.md 4.3). A failure throws and
 * the job's own backoff retries it.
 */
export function startSessionEventsWorker(
  deps: SessionEndedDeps,
  options: { redisUrl: string; redisKeyPrefix: string },
): SessionEventsWorker {
  const connection = new Redis(options.redisUrl, {
    maxRetriesPerRequest: null,
    connectionName: 'oauth-session-events',
  });
  connection.on('error', () => undefined);
  const worker = new Worker(
    SESSION_EVENTS_QUEUE_NAME,
    async (job: Job) => {
      if (job.name !== SESSION_ENDED_JOB) return;
      await handleSessionEnded(deps, sessionEndedJobSchema.parse(job.data));
    },
    { connection, prefix: sessionEventsQueuePrefix(options.redisKeyPrefix), concurrency: 5 },
  );
  worker.on('error', (error) => deps.log.warn({ err: error }, 'session-events worker error'));
  worker.on('failed', (job, error) =>
    deps.log.warn({ jobId: job?.id, err: error }, 'session end not handled yet; will retry'),
  );
  return {
    async close() {
      await worker.close().catch(() => undefined);
      await connection.quit().catch(() => connection.disconnect());
    },
  };
}
