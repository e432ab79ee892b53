import type { Logger } from '@authz/shared/logger';
import type { MailOutbox } from './mail-outbox.js';
import type { MailQueue } from './mail-queue.js';
import { openOutboxPayload } from './outbox-payload.js';
import { createRelayLoop, type Relay } from './relay-loop.js';

export interface OutboxRelayDeps {
  outbox: MailOutbox;
  queue: MailQueue;
  outboxKey: Buffer;
  log: Logger;
  pollIntervalMs: number;
}

export type OutboxRelay = Relay;

/**
 * docs/decisions.md #29: moves committed outbox rows into the BullMQ queue. Rows stay until their
 * job is added, so a crash or restart resends nothing twice (jobId = row id) and loses nothing.
 * Once enqueued, the sealed payload is erased: the job now carries the mail.
 */
export function createOutboxRelay(deps: OutboxRelayDeps): OutboxRelay {
  return createRelayLoop({
    name: 'mail outbox relay',
    log: deps.log,
    pollIntervalMs: deps.pollIntervalMs,
    pending: (limit) => deps.outbox.pending(limit),
    async relay(row) {
      if (row.payload !== null) {
        await deps.queue.add(row.jobName, openOutboxPayload(deps.outboxKey, row.id, row.payload), row.id);
      }
      await deps.outbox.markEnqueued(row.id, new Date());
    },
  });
}
