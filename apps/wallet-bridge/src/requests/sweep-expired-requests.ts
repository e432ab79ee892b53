import type { Logger } from '@authz/shared/logger';
import type { PresentationRequestStore } from './presentation-request-store.js';

/** Long enough that no poll still reads a flow; short enough that unread presentations go soon. */
const KEEP_AFTER_EXPIRY_MS = 60 * 60 * 1000;
const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

/**
 * Deletes presentation requests an hour past their expiry, with any vp_token never read
 * (docs/wallet.md #2): a presentation carries personal data and is kept no longer than the
 * flow needs it. Every replica sweeps; the DELETE is idempotent.
 */
export function startExpiredRequestSweeper(
  requests: Pick<PresentationRequestStore, 'deleteExpiredBefore'>,
  log: Logger,
): { stop(): void } {
  const sweep = async () => {
    try {
      await requests.deleteExpiredBefore(new Date(Date.now() - KEEP_AFTER_EXPIRY_MS));
    } catch (error) {
      log.warn({ err: error }, 'sweeping expired presentation requests failed; retrying later');
    }
  };
  const timer = setInterval(() => void sweep(), SWEEP_INTERVAL_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
