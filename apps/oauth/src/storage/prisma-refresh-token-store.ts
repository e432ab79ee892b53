import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { LiveAccessToken } from '../protocol/access-token/deny-list.js';
import type {
  NewRefreshToken,
  RefreshTokenFamily,
  RefreshTokenStore,
  StoredRefreshToken,
} from '../protocol/refresh-token/refresh-token-store.js';

export class PrismaRefreshTokenStore implements RefreshTokenStore {
  constructor(private readonly prisma: PrismaClient) {}

  async openFamily(
    family: Omit<RefreshTokenFamily, 'id' | 'revokedAt'>,
    first: NewRefreshToken,
  ): Promise<string> {
    const id = randomUUID();
    await this.prisma.refreshTokenFamily.create({
      data: {
        ...family,
        authTime:
          family.authTime === undefined || family.authTime === null ? null : new Date(family.authTime * 1000),
        id,
        tokens: { create: { ...first, id: randomUUID() } },
      },
    });
    return id;
  }

  async findByHash(tokenHash: string): Promise<StoredRefreshToken | undefined> {
    const row = await this.prisma.refreshToken.findUnique({
      where: { tokenHash },
      include: { family: { include: { consent: { select: { revokedAt: true } } } } },
    });
    if (!row) return undefined;
    const { family } = row;
    return {
      familyId: row.familyId,
      issuedAt: row.createdAt,
      expiresAt: row.expiresAt,
      rotatedAt: row.rotatedAt,
      family: {
        id: family.id,
        userId: family.userId,
        clientId: family.clientId,
        sessionId: family.sessionId,
        scope: family.scope,
        resources: family.resources,
        consentId: family.consentId,
        amr: family.amr,
        authTime: family.authTime === null ? null : Math.floor(family.authTime.getTime() / 1000),
        // A revoked consent kills its families even before they are marked revoked.
        revokedAt: family.revokedAt ?? family.consent?.revokedAt ?? null,
        ...(family.dpopJkt ? { dpopJkt: family.dpopJkt } : {}),
      },
    };
  }

  rotate(tokenHash: string, next: NewRefreshToken, now: Date): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      // The family row first, as revocation locks it too (docs/tokens.md #11): a revocation
      // either waits for this rotation and then reports its access token, or commits first
      // and the UPDATE below, a new snapshot, sees the family revoked.
      await tx.$queryRaw`
        SELECT f.id FROM "oauth"."refresh_token_families" f
        JOIN "oauth"."refresh_tokens" t ON t.family_id = f.id
        WHERE t.token_hash = ${tokenHash}
        FOR UPDATE OF f`;
      // One conditional UPDATE: Postgres re-checks `rotated_at IS NULL` after a concurrent
      // writer commits, so only one of two racing rotations matches the row.
      const [rotated] = await tx.refreshToken.updateManyAndReturn({
        where: {
          tokenHash,
          rotatedAt: null,
          expiresAt: { gt: now },
          family: { revokedAt: null, OR: [{ consentId: null }, { consent: { revokedAt: null } }] },
        },
        data: { rotatedAt: now },
        select: { familyId: true },
      });
      if (!rotated) return false;
      await tx.refreshToken.create({ data: { ...next, id: randomUUID(), familyId: rotated.familyId } });
      return true;
    });
  }

  revokeFamily(familyId: string, now: Date): Promise<LiveAccessToken[]> {
    return this.revokeWhere({ id: familyId }, now);
  }

  revokeSessionFamilies(sessionId: string, now: Date): Promise<LiveAccessToken[]> {
    return this.revokeWhere({ sessionId }, now);
  }

  revokeConsentFamilies(consentId: string, now: Date): Promise<LiveAccessToken[]> {
    return this.revokeWhere({ consentId }, now);
  }

  async revokeUserFamilies(
    userId: string,
    exceptSessionId: string | undefined,
    now: Date,
  ): Promise<{ revoked: number; live: LiveAccessToken[] }> {
    // A family without a session is never the spared one (SQL's <> alone would skip NULLs).
    const where =
      exceptSessionId === undefined
        ? { userId }
        : { userId, OR: [{ sessionId: null }, { sessionId: { not: exceptSessionId } }] };
    // As revokeWhere: one transaction, so no rotation adds a token between the two statements.
    const { revoked, live } = await this.prisma.$transaction(async (tx) => {
      const updated = await tx.refreshTokenFamily.updateMany({
        where: { ...where, revokedAt: null },
        data: { revokedAt: now },
      });
      const tokens = await tx.refreshToken.findMany({
        where: { family: where, accessTokenExpiresAt: { gt: now } },
        select: { accessTokenJti: true, accessTokenExpiresAt: true },
      });
      return { revoked: updated.count, live: tokens };
    });
    return {
      revoked,
      live: live.map((token) => ({
        jti: token.accessTokenJti,
        expiresAt: Math.ceil(token.accessTokenExpiresAt.getTime() / 1000),
      })),
    };
  }

  private async revokeWhere(
    where: { id: string } | { sessionId: string } | { consentId: string },
    now: Date,
  ): Promise<LiveAccessToken[]> {
    // One transaction: the UPDATE holds the family rows until the tokens are read, so a
    // rotation (which locks its family first) cannot add a token in between (RFC 9700
    // section 4.14.2: the whole family's access tokens are denied).
    const { live, derived } = await this.prisma.$transaction(async (tx) => {
      await tx.refreshTokenFamily.updateMany({
        where: { ...where, revokedAt: null },
        data: { revokedAt: now },
      });
      const live = await tx.refreshToken.findMany({
        where: { family: where, accessTokenExpiresAt: { gt: now } },
        select: { accessTokenJti: true, accessTokenExpiresAt: true },
      });
      // docs/tokens.md #30: tokens derived by exchange go with the family, session or consent
      // their first subject belonged to, also when that subject was in no family (a code-only
      // token). The same condition on the derived row's own columns, so a new kind of
      // revocation added above covers them without more code.
      const derived = await tx.derivedToken.findMany({
        where: {
          OR: [{ family: where }, 'id' in where ? { familyId: where.id } : where],
          expiresAt: { gt: now },
        },
        select: { jti: true, expiresAt: true },
      });
      return { live, derived };
    });
    return [
      ...live.map((token) => ({
        jti: token.accessTokenJti,
        expiresAt: Math.ceil(token.accessTokenExpiresAt.getTime() / 1000),
      })),
      ...derived.map((token) => ({ jti: token.jti, expiresAt: Math.ceil(token.expiresAt.getTime() / 1000) })),
    ];
  }
}
