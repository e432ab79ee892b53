import { ServiceUnavailableError } from '@authz/shared/errors';

export interface ConcurrencyLimits {
  /** Tasks running at once. */
  concurrency: number;
  /** Tasks waiting for a slot; one more is refused at once. */
  queue: number;
  /** What the refusal tells the client to wait (RFC 9110 section 10.2.3 Retry-After). */
  retryAfterSeconds: number;
}

export interface ConcurrencyLimiter {
  /** Runs `task` when a slot is free, in arrival order; refuses at once when the queue is full. */
  run<T>(task: () => Promise<T>): Promise<T>;
}

/**
 * A bounded semaphore with a bounded FIFO queue (docs/identity.md #16). Refusing beyond the
 * queue keeps a burst from piling up work that would only finish after its callers gave up.
 */
export function createConcurrencyLimiter(limits: ConcurrencyLimits): ConcurrencyLimiter {
  const waiting: (() => void)[] = [];
  let running = 0;

  const release = () => {
    const next = waiting.shift();
    // The slot passes straight to the next in line, so a later arrival cannot overtake it.
    if (next) next();
    else running -= 1;
  };

  const acquire = (): Promise<void> | undefined => {
    if (running < limits.concurrency) {
      running += 1;
      return undefined;
    }
    if (waiting.length >= limits.queue) {
      throw new ServiceUnavailableError({
        detail: `concurrency limit: ${running} running, ${waiting.length} waiting`,
        attributes: { retryAfterSeconds: String(limits.retryAfterSeconds) },
      });
    }
    return new Promise((resolve) => waiting.push(resolve));
  };

  return {
    async run(task) {
      await acquire();
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}
