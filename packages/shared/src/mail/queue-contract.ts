import { z } from 'zod';

// The mail queue between identity's outbox relay (the producer) and apps/mailer-worker (the
// consumer), defined once for both (docs/mail.md "Queue contract").

export const MAIL_QUEUE_NAME = 'mail';

export const VERIFICATION_EMAIL_JOB = 'verification-email';

/** BullMQ's key prefix for the queue: `${REDIS_KEY_PREFIX}bull`, so keys read `<prefix>bull:mail:...`. */
export function mailQueuePrefix(redisKeyPrefix: string): string {
  return `${redisKeyPrefix}bull`;
}

/** Data of a `verification-email` job; `verifyUrl` is `${JWT_ISSUER}/ui/verify-email?token=<64 hex>` (interface.md 4.10). */
export const verificationEmailJobSchema = z.object({
  to: z.email().max(254),
  verifyUrl: z.url({ protocol: /^https?$/ }).max(2048),
});

export type VerificationEmailJob = z.infer<typeof verificationEmailJobSchema>;

/**
 * The options the producer adds each job with. jobId = the outbox row id, so a relay that
 * re-publishes a row (a restart, two replicas) adds nothing twice. The worker never relies on
 * them: retries and backoff travel with the job.
 */
export function mailJobOptions(outboxId: string) {
  return {
    jobId: outboxId,
    // The mailer-worker's capped-exponential strategy: 1 s doubling to 15 min, ~a day in all.
    attempts: 100,
    backoff: { type: 'capped-exponential', delay: 1000 },
    // A completed job holds a live verification link: nothing to keep (docs/mail.md). Failed
    // jobs are kept, their data redacted by the worker.
    removeOnComplete: true,
    removeOnFail: 5000,
  } as const;
}
