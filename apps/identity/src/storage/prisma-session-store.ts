import type { PrismaClient, Session, User } from '../generated/prisma/client.js';
import type { NewSession, SessionStore } from '../sessions/session-store.js';
import { refusedSessionAsBadCredentials } from './refused-session.js';

export class PrismaSessionStore implements SessionStore {
  constructor(private readonly prisma: PrismaClient) {}

  async open(session: NewSession): Promise<Session> {
    try {
      return await this.prisma.session.create({
        data: { ...session, userAgent: session.userAgent ?? null, lastSeenAt: session.authTime },
      });
    } catch (error) {
      throw refusedSessionAsBadCredentials(error);
    }
  }

  async findByTokenHash(tokenHash: string): Promise<{ session: Session; user: User } | undefined> {
    const found = await this.prisma.session.findUnique({ where: { tokenHash }, include: { user: true } });
    if (!found) return undefined;
    const { user, ...session } = found;
    return { session, user };
  }

  async reauthenticate(sessionId: string, amr: string[], authTime: Date): Promise<boolean> {
    const updated = await this.prisma.session.updateMany({
      where: { id: sessionId, endedAt: null, expiresAt: { gt: authTime } },
      data: { amr, authTime },
    });
    return updated.count > 0;
  }

  async end(sessionId: string, userId: string, now: Date): Promise<boolean> {
    const ended = await this.prisma.session.updateMany({
      where: { id: sessionId, userId, endedAt: null },
      data: { endedAt: now },
    });
    return ended.count > 0;
  }

  listLive(userId: string, now: Date): Promise<Session[]> {
    return this.prisma.session.findMany({
      where: { userId, endedAt: null, expiresAt: { gt: now } },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
  }

  async findLive(userId: string, sessionId: string, now: Date): Promise<Session | undefined> {
    const found = await this.prisma.session.findFirst({
      where: { id: sessionId, userId, endedAt: null, expiresAt: { gt: now } },
    });
    return found ?? undefined;
  }

  async touch(sessionId: string, now: Date, staleBefore: Date): Promise<void> {
    await this.prisma.session.updateMany({
      where: {
        id: sessionId,
        endedAt: null,
        OR: [{ lastSeenAt: null }, { lastSeenAt: { lt: staleBefore } }],
      },
      data: { lastSeenAt: now },
    });
  }
}
