import type { Logger } from '@authz/shared/logger';
import { createRelayLoop, type Relay } from '../outbox/relay-loop.js';
import type { SessionEndOutbox } from './session-end-outbox.js';
import type { SessionEventsQueue } from './session-events-queue.js';

export interface SessionEndRelayDeps {
  outbox: SessionEndOutbox;
  queue: SessionEventsQueue;
  log: Logger;
  pollIntervalMs: number;
}

export type SessionEndRelay = Relay;

/**
 * Moves committed session ends into the session-events queue, as the mail relay does for mail
 * (docs/decisions.md #29): a row stays until its job is added, then goes (jobId = row id, so a
 * crash between the two adds nothing twice), and a pass runs every poll interval, so an end
 * written by code that never kicks is still relayed (docs/identity.md #17).
 */
export function createSessionEndRelay(deps: SessionEndRelayDeps): SessionEndRelay {
  return createRelayLoop({
    name: 'session-end relay',
    log: deps.log,
    pollIntervalMs: deps.pollIntervalMs,
    pending: (limit) => deps.outbox.pending(limit),
    async relay(row) {
      await deps.queue.addSessionEnded(
        { sessionId: row.sessionId, userId: row.userId, endedAt: row.endedAt.getTime() },
        row.id,
      );
      await deps.outbox.forget(row.id);
    },
  });
}
