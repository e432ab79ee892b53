import { z } from 'zod';

// The queue between identity's session-end relay (the producer) and oauth's session-end
// worker (the consumer), defined once for both (docs/identity.md #17).

export const SESSION_EVENTS_QUEUE_NAME = 'session-events';

export const SESSION_ENDED_JOB = 'session-ended';

/** BullMQ's key prefix: `${REDIS_KEY_PREFIX}bull`, as for the mail queue. */
export function sessionEventsQueuePrefix(redisKeyPrefix: string): string {
  return `${redisKeyPrefix}bull`;
}

/** Data of a `session-ended` job: the session's public id (the `sid` claim) and its user. */
export const sessionEndedJobSchema = z.object({
  sessionId: z.uuid(),
  userId: z.uuid(),
  /** Epoch milliseconds. */
  endedAt: z.number().int().nonnegative(),
});

export type SessionEndedJob = z.infer<typeof sessionEndedJobSchema>;

/**
 * jobId = the outbox row id, so a relay that re-publishes a row adds nothing twice. The
 * consumer's work (revocations, back-channel fan-out) is idempotent, so retries are safe:
 * 1 s doubling, 20 attempts (about six days while oauth is down).
 */
export function sessionEndedJobOptions(outboxId: string) {
  return {
    jobId: outboxId,
    attempts: 20,
    backoff: { type: 'exponential', delay: 1000 },
    removeOnComplete: true,
    removeOnFail: 5000,
  } as const;
}
