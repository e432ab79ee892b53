import type { Logger } from '@authz/shared/logger';
import type { Registry } from '../../registry.js';
import { finishAccountDeletion } from './delete-account.js';

type Deps = Pick<Registry, 'accounts' | 'userGrants' | 'denyList'> & { log: Logger };

/** Deletions finished per sweep at most; the next sweep takes the rest. */
const BATCH = 50;

/**
 * docs/identity.md #19: finishes account deletions a crash (or an unreachable service) left
 * halfway. It takes only deletions begun more than `graceMs` ago, so it does not race the
 * request still finishing one; racing would be harmless anyway, as every step is idempotent.
 * Answers how many it finished.
 */
export async function sweepAccountDeletions(deps: Deps, graceMs: number, now = Date.now()): Promise<number> {
  const pending = await deps.accounts.listPendingDeletions(new Date(now - graceMs), BATCH);
  let finished = 0;
  for (const account of pending) {
    try {
      await finishAccountDeletion(deps, account, { ip: '', userAgent: '' });
      finished += 1;
    } catch (error) {
      deps.log.warn({ err: error }, 'account deletion not finished; the next sweep retries');
    }
  }
  return finished;
}

/** Runs the sweep every `intervalMs` until stopped; a failed sweep is logged and retried. */
export function startDeletionSweeper(
  deps: Deps,
  options: { intervalMs: number; graceMs: number },
): { stop(): void } {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sweepAccountDeletions(deps, options.graceMs)
      .catch((error: unknown) => deps.log.warn({ err: error }, 'account deletion sweep failed'))
      .finally(() => {
        running = false;
      });
  }, options.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
