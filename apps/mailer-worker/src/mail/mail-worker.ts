import { Worker, type Job } from 'bullmq';
import type { SendMailOptions } from 'nodemailer';
import type { Registry } from '../registry.js';
import { MAIL_QUEUE_NAME, mailQueuePrefix } from '@authz/shared/mail';
import type { MailFailureOutcome, MailMetrics } from './mail-metrics.js';
import { maskEmail } from './mask-email.js';
import { redactJobData } from './redact-job.js';
import { mailKind, renderMailJob } from './render-mail.js';
import { cappedExponentialBackoff } from './backoff.js';

/**
 * How often a job may be taken back from a crashed worker before BullMQ fails it. High enough
 * that crashes never lose mail; finite so a job that kills every worker cannot loop forever.
 */
export const MAX_STALLED_COUNT = 10;

/** The worker uses every part of the registry. */
export type MailWorkerDeps = Registry;

/**
 * Consumes the `mail` queue. Delivery is at least once (docs/mail.md): a job completes only
 * after the SMTP server accepted the message; a failed send throws so BullMQ retries with the
 * job's own backoff; a job whose worker dies is re-delivered once its lock expires.
 */
export function startMailWorker(deps: MailWorkerDeps): Worker {
  const worker = new Worker(MAIL_QUEUE_NAME, (job: Job) => processMailJob(deps, job), {
    connection: deps.connection,
    prefix: mailQueuePrefix(deps.redisKeyPrefix),
    concurrency: deps.concurrency,
    lockDuration: deps.lockDurationMs,
    stalledInterval: deps.stalledIntervalMs,
    maxStalledCount: MAX_STALLED_COUNT,
    settings: {
      backoffStrategy: (attemptsMade, _type, _error, job) =>
        cappedExponentialBackoff(attemptsMade, backoffBaseDelay(job?.opts.backoff)),
    },
  });
  // BullMQ emits 'failed' for every failed attempt, retried or not; a job that failed for good
  // without running the processor (the stalled limit) was not redacted there.
  worker.on('failed', (job) => {
    if (!job) return;
    redactIfFailed(job).catch((error: unknown) =>
      deps.logger.error({ jobId: job.id, err: describeError(error) }, 'mail job redaction failed'),
    );
  });
  worker.on('stalled', (jobId) => {
    deps.metrics.stalled.inc();
    deps.logger.warn({ jobId }, 'mail job stalled (worker lost); re-delivering');
  });
  // BullMQ reports connection trouble here; it reconnects on its own.
  worker.on('error', (error) => deps.logger.error({ err: describeError(error) }, 'mail worker error'));
  return worker;
}

async function processMailJob(deps: MailWorkerDeps, job: Job): Promise<void> {
  const kind = mailKind(job.name);
  const log = deps.logger.child({ jobId: job.id, kind, attempt: job.attemptsMade + 1 });
  let message: SendMailOptions & { to: string };
  try {
    message = composeMessage(deps.mailFrom, job);
  } catch (error) {
    countFailure(deps.metrics, kind, 'rejected');
    log.error({ err: describeError(error) }, 'mail job rejected');
    await redactJobData(job);
    throw error;
  }
  const to = maskEmail(message.to);
  try {
    await deps.transport.sendMail(message);
  } catch (error) {
    const outcome = job.attemptsMade + 1 >= (job.opts.attempts ?? 1) ? 'exhausted' : 'retry';
    countFailure(deps.metrics, kind, outcome);
    log.warn({ to, outcome, err: describeError(error) }, 'mail send failed');
    // Before BullMQ stores the job as failed, so the link never sits in the failed set.
    if (outcome === 'exhausted') await redactJobData(job);
    throw error;
  }
  deps.metrics.sent.inc({ kind });
  log.info({ to }, 'mail sent');
}

async function redactIfFailed(job: Job): Promise<void> {
  if ((await job.getState()) === 'failed') await redactJobData(job);
}

/** The message for a job; a job no retry can fix fails at once (UnrecoverableError). */
function composeMessage(from: string, job: Job): SendMailOptions & { to: string } {
  const { to, ...message } = renderMailJob(job.name, job.data);
  return {
    from,
    to,
    // Stable per job, so a duplicate after a crash carries the same Message-ID (RFC 5322 §3.6.4).
    messageId: messageIdFor(job, from),
    ...message,
  };
}

function messageIdFor(job: Job, from: string): string {
  const domain = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';
  const id = String(job.id ?? 'unknown').replace(/[^A-Za-z0-9._-]/g, '-');
  return `<${job.name}.${id}@${domain}>`;
}

function countFailure(metrics: MailMetrics, kind: string, outcome: MailFailureOutcome): void {
  metrics.failed.inc({ kind, outcome });
}

/** Error fields safe to log: nodemailer's SMTP code and reply, never the message itself. */
function describeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const { code, responseCode, command } = error as Error & Record<string, unknown>;
  return { name: error.name, message: error.message, code, responseCode, command };
}

/** The job's own base delay (`backoff: { type: 'capped-exponential', delay }`), else 1 s. */
function backoffBaseDelay(backoff: number | { delay?: number } | undefined): number {
  const delay = typeof backoff === 'number' ? backoff : backoff?.delay;
  return delay !== undefined && delay > 0 ? delay : 1000;
}
