import type { PrismaClient } from '../generated/prisma/client.js';
import type { MailOutbox, OutboxRow } from '../outbox/mail-outbox.js';

export class PrismaMailOutbox implements MailOutbox {
  constructor(private readonly prisma: PrismaClient) {}

  pending(limit: number): Promise<OutboxRow[]> {
    return this.prisma.mailOutbox.findMany({
      where: { enqueuedAt: null },
      orderBy: { createdAt: 'asc' },
      take: limit,
    });
  }

  async markEnqueued(id: string, at: Date): Promise<void> {
    await this.prisma.mailOutbox.updateMany({
      where: { id, enqueuedAt: null },
      data: { enqueuedAt: at, payload: null },
    });
  }
}
