import type { PrismaClient } from '../generated/prisma/client.js';
import type { SessionEndOutbox, SessionEndRow } from '../session-events/session-end-outbox.js';

export class PrismaSessionEndOutbox implements SessionEndOutbox {
  constructor(private readonly prisma: PrismaClient) {}

  pending(limit: number): Promise<SessionEndRow[]> {
    return this.prisma.sessionEndOutbox.findMany({
      orderBy: { createdAt: 'asc' },
      take: limit,
    });
  }

  async forget(id: string): Promise<void> {
    await this.prisma.sessionEndOutbox.deleteMany({ where: { id } });
  }
}
