import type { Logger } from '@authz/shared/logger';
import type { MailOutbox } from './mail-outbox.js';
import type { MailQueue } from './mail-queue.js';
import { openOutboxPayload } from './outbox-payload.js';

const BATCH_SIZE = 50;
const STOP_GRACE_MS = 2000;

export interface OutboxRelayDeps {
  outbox: MailOutbox;
  queue: MailQueue;
  outboxKey: Buffer;
  log: Logger;
  pollIntervalMs: number;
}

export interface OutboxRelay {
  start(): void;
  /** Asks for a pass now (after a registration commits); passes never overlap. */
  kick(): void;
  stop(): Promise<void>;
}

/**
 * docs/decisions.md #29: moves committed outbox rows into the BullMQ queue. Rows stay until their
 * job is added, so a crash or restart resends nothing twice (jobId = row id) and loses nothing.
 * Once enqueued, the sealed payload is erased: the job now carries the mail.
 */
export function createOutboxRelay(deps: OutboxRelayDeps): OutboxRelay {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  const pass = async (): Promise<void> => {
    for (;;) {
      const rows = await deps.outbox.pending(BATCH_SIZE);
      for (const row of rows) {
        if (stopped) return;
        if (row.payload !== null) {
          await deps.queue.add(row.jobName, openOutboxPayload(deps.outboxKey, row.id, row.payload), row.id);
        }
        await deps.outbox.markEnqueued(row.id, new Date());
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
      .catch((error: unknown) => deps.log.warn({ err: error }, 'mail outbox relay pass failed; will retry'))
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
      // A pass blocked on an unreachable Redis must not hold up shutdown; its rows stay queued.
      await Promise.race([running, new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref())]);
    },
  };
}
