import type { Job } from 'bullmq';
import { maskEmail } from './mask-email.js';

/**
 * What a failed job keeps in Redis (docs/mail.md "Failures and retries"): the masked recipient,
 * so an operator sees that a mail failed and to whom, never the verification link, which would
 * otherwise outlive its mail in the `failed` set.
 */
export interface RedactedMailJobData {
  to: string;
  redacted: true;
}

export function redactedMailJobData(data: unknown): RedactedMailJobData {
  const to = (data as { to?: unknown } | null)?.to;
  return { to: typeof to === 'string' ? maskEmail(to) : '***', redacted: true };
}

export function isRedacted(data: unknown): boolean {
  return (data as { redacted?: unknown } | null)?.redacted === true;
}

/** Replaces the job's data with its redacted copy; a no-op once redacted. */
export async function redactJobData(job: Job): Promise<void> {
  if (isRedacted(job.data)) return;
  await job.updateData(redactedMailJobData(job.data));
}
