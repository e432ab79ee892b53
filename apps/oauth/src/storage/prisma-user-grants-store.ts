import type { PrismaClient } from '../generated/prisma/client.js';
import type { LiveAccessToken } from '../protocol/access-token/deny-list.js';
import type { UserGrantsStore } from '../protocol/account-lifecycle/user-grants-store.js';

export class PrismaUserGrantsStore implements UserGrantsStore {
  constructor(private readonly prisma: PrismaClient) {}

  async revokeAll(userId: string, now: Date): Promise<LiveAccessToken[]> {
    // As in revoking one family (prisma-refresh-token-store.ts): the UPDATE holds the family
    // rows until their tokens are read, so no rotation adds one in between.
    const [fromFamilies, fromCodes, derived] = await this.prisma.$transaction(async (tx) => {
      await tx.refreshTokenFamily.updateMany({
        where: { userId, revokedAt: null },
        data: { revokedAt: now },
      });
      return Promise.all([
        tx.refreshToken.findMany({
          where: { family: { userId }, accessTokenExpiresAt: { gt: now } },
          select: { accessTokenJti: true, accessTokenExpiresAt: true },
        }),
        // A code redeemed without offline_access issued an access token and no family.
        tx.authorizationCode.findMany({
          where: { userId, accessTokenJti: { not: null }, accessTokenExpiresAt: { gt: now } },
          select: { accessTokenJti: true, accessTokenExpiresAt: true },
        }),
        // Tokens exchanged from the user's (docs/tokens.md #30) go with the account too.
        tx.derivedToken.findMany({
          where: { userId, expiresAt: { gt: now } },
          select: { jti: true, expiresAt: true },
        }),
      ]);
    });
    return [
      ...[...fromFamilies, ...fromCodes].map((token) => ({
        jti: token.accessTokenJti!,
        expiresAt: Math.ceil(token.accessTokenExpiresAt!.getTime() / 1000),
      })),
      ...derived.map((token) => ({ jti: token.jti, expiresAt: Math.ceil(token.expiresAt.getTime() / 1000) })),
    ];
  }

  async deleteAll(userId: string): Promise<void> {
    // Children before parents: codes and families reference consents.
    await this.prisma.$transaction([
      this.prisma.derivedToken.deleteMany({ where: { userId } }),
      this.prisma.authorizationCode.deleteMany({ where: { userId } }),
      this.prisma.refreshTokenFamily.deleteMany({ where: { userId } }),
      this.prisma.consent.deleteMany({ where: { userId } }),
    ]);
  }
}
