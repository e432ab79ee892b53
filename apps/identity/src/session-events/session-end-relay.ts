import type { Logger } from '@authz/shared/logger';
import type { SessionEndOutbox } from './session-end-outbox.js';
import type { SessionEventsQueue } from './session-events-queue.js';

const BATCH_SIZE = 50;
const STOP_GRACE_MS = 2000;

export interface SessionEndRelayDeps {
  outbox: SessionEndOutbox;
  queue: SessionEventsQueue;
  log: Logger;
  pollIntervalMs: number;
}

export interface SessionEndRelay {
  start(): void;
  /** Asks for a pass now (after a session end commits); passes never overlap. */
  kick(): void;
  stop(): Promise<void>;
}

/**
 * Moves committed session ends into the session-events queue, as the mail relay does for mail
 * (docs/decisions.md #29): a row stays until its job is added, then goes (jobId = row id, so a
 * crash between the two adds nothing twice), and a pass runs every poll interval, so an end written
 * by code that never kicks is still relayed.
 */
export function createSessionEndRelay(deps: SessionEndRelayDeps): SessionEndRelay {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  const pass = async (): Promise<void> => {
    for (;;) {
      const rows = await deps.outbox.pending(BATCH_SIZE);
      for (const row of rows) {
        if (stopped) return;
        await deps.queue.addSessionEnded(
          { sessionId: row.sessionId, userId: row.userId, endedAt: row.endedAt.getTime() },
          row.id,
        );
        await deps.outbox.forget(row.id);
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
      .catch((error: unknown) => deps.log.warn({ err: error }, 'session-end relay pass failed; will retry'))
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
      timer = setInterval(kick, deps.pollIntervalMs);
      timer.unref();
      kick();
    },
    kick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await Promise.race([running, new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref())]);
    },
  };
}
