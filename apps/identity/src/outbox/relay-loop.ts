import type { Logger } from '@authz/shared/logger';

const BATCH_SIZE = 50;
const STOP_GRACE_MS = 2000;

export interface Relay {
  start(): void;
  /** Asks for a pass now (after a commit that wrote rows); passes never overlap. */
  kick(): void;
  stop(): Promise<void>;
}

export interface RelayLoopOptions<Row> {
  /** Rows not yet relayed, oldest first, at most `limit`. */
  pending(limit: number): Promise<Row[]>;
  /** Hands one row on; a row stays pending until this resolves (docs/decisions.md #29). */
  relay(row: Row): Promise<void>;
  log: Logger;
  /** Says which relay failed in the log line. */
  name: string;
  pollIntervalMs: number;
}

/**
 * The loop every outbox relay of identity shares (docs/decisions.md #29): a pass on every poll
 * interval and whenever kicked, never two at once (a kick during a pass runs one more after
 * it), batches until the outbox is empty, and a stop that waits a little for the pass in flight.
 */
export function createRelayLoop<Row>(options: RelayLoopOptions<Row>): Relay {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  const pass = async (): Promise<void> => {
    for (;;) {
      const rows = await options.pending(BATCH_SIZE);
      for (const row of rows) {
        if (stopped) return;
        await options.relay(row);
      }
      if (rows.length < BATCH_SIZE) return;
    }
  };

  const kick = (): void => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = pass()
      .catch((error: unknown) => options.log.warn({ err: error }, `${options.name} pass failed; will retry`))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          kick();
        }
      });
  };

  return {
    start() {
      timer = setInterval(kick, options.pollIntervalMs);
      timer.unref();
      kick();
    },
    kick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      // A pass blocked on an unreachable Redis must not hold up shutdown; its rows stay queued.
      await Promise.race([running, new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref())]);
    },
  };
}
