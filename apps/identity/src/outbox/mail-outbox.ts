import type { MailOutbox as OutboxRow } from '../generated/prisma/client.js';

export type { OutboxRow };

/** The mail outbox as the relay reads it (docs/conventions.md #7, docs/decisions.md #29). */
export interface MailOutbox {
  /** Rows not yet enqueued, oldest first. */
  pending(limit: number): Promise<OutboxRow[]>;
  /** Marks the row enqueued and erases its sealed payload; a row already marked is left as it is. */
  markEnqueued(id: string, at: Date): Promise<void>;
}
