import type { PrismaClient } from '../generated/prisma/client.js';
import type { LiveAccessToken } from '../protocol/access-token/deny-list.js';
import type {
  DerivedTokenStore,
  NewDerivedToken,
  TokenLineage,
} from '../protocol/token-lineage/derived-token-store.js';

export class PrismaDerivedTokenStore implements DerivedTokenStore {
  constructor(private readonly prisma: PrismaClient) {}

  async lineageOf(jti: string): Promise<TokenLineage | undefined> {
    const derived = await this.prisma.derivedToken.findUnique({
      where: { jti },
      select: { familyId: true, sessionId: true, consentId: true, rootJti: true },
    });
    if (derived) return derived;
    const refreshed = await this.prisma.refreshToken.findFirst({
      where: { accessTokenJti: jti },
      select: { family: { select: { id: true, sessionId: true, consentId: true } } },
    });
    if (refreshed) {
      const { family } = refreshed;
      return { familyId: family.id, sessionId: family.sessionId, consentId: family.consentId, rootJti: jti };
    }
    const code = await this.prisma.authorizationCode.findFirst({
      where: { accessTokenJti: jti },
      select: { refreshFamilyId: true, sessionId: true, consentId: true },
    });
    if (code) {
      return {
        familyId: code.refreshFamilyId,
        sessionId: code.sessionId,
        consentId: code.consentId,
        rootJti: jti,
      };
    }
    return undefined;
  }

  record({ jti, userId, expiresAt, lineage }: NewDerivedToken): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      // FOR SHARE: a revocation's UPDATE of these rows waits for this insert to commit and then
      // reads it among the live tokens; one that committed first is seen here (docs/tokens.md #30).
      if (lineage.familyId !== null) {
        const [family] = await tx.$queryRaw<{ revoked: boolean }[]>`
          SELECT revoked_at IS NOT NULL AS revoked FROM "oauth"."refresh_token_families"
          WHERE id = ${lineage.familyId}::uuid FOR SHARE`;
        if (!family || family.revoked) return false;
      }
      if (lineage.consentId !== null) {
        const [consent] = await tx.$queryRaw<{ revoked: boolean }[]>`
          SELECT revoked_at IS NOT NULL AS revoked FROM "oauth"."consents"
          WHERE id = ${lineage.consentId}::uuid FOR SHARE`;
        if (!consent || consent.revoked) return false;
      }
      await tx.derivedToken.create({
        data: { jti, userId, ...lineage, expiresAt: new Date(expiresAt * 1000) },
      });
      return true;
    });
  }

  async liveDerivedFrom(rootJti: string, now: Date): Promise<LiveAccessToken[]> {
    const rows = await this.prisma.derivedToken.findMany({
      where: { rootJti, expiresAt: { gt: now } },
      select: { jti: true, expiresAt: true },
    });
    return rows.map((row) => ({ jti: row.jti, expiresAt: Math.ceil(row.expiresAt.getTime() / 1000) }));
  }
}
