import type { PrismaClient, Session, User } from '../generated/prisma/client.js';
import type { NewSession, SessionStore } from '../sessions/session-store.js';

export class PrismaSessionStore implements SessionStore {
  constructor(private readonly prisma: PrismaClient) {}

  open(session: NewSession): Promise<Session> {
    return this.prisma.session.create({ data: session });
  }

  async findByTokenHash(tokenHash: string): Promise<{ session: Session; user: User } | undefined> {
    const found = await this.prisma.session.findUnique({ where: { tokenHash }, include: { user: true } });
    if (!found) return undefined;
    const { user, ...session } = found;
    return { session, user };
  }

  async end(sessionId: string, userId: string, now: Date): Promise<boolean> {
    const ended = await this.prisma.session.updateMany({
      where: { id: sessionId, userId, endedAt: null },
      data: { endedAt: now },
    });
    return ended.count > 0;
  }
}
