/**
 * Retry timing of mail jobs (docs/decisions.md #29: mail is never lost). Plain exponential backoff
 * gives up after a short outage or waits days between late attempts; `capped-exponential`
 * doubles from the job's `delay` up to a ceiling, so 100 attempts ride out about a day of
 * SMTP downtime while still retrying every 15 minutes.
 */
export const CAPPED_EXPONENTIAL = 'capped-exponential';
export const MAX_RETRY_DELAY_MS = 15 * 60 * 1000;

/** BullMQ's custom backoffStrategy: the wait before the next attempt, in milliseconds. */
export function cappedExponentialBackoff(attemptsMade: number, baseDelayMs: number): number {
  const exponent = Math.max(0, Math.min(attemptsMade - 1, 30));
  return Math.min(baseDelayMs * 2 ** exponent, MAX_RETRY_DELAY_MS);
}
