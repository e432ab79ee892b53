import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '../generated/prisma/client.js';
import type {
  AuthorizationCodeStore,
  IssuedTokens,
  NewAuthorizationCode,
  StoredAuthorizationCode,
} from '../protocol/authorization-code/authorization-code-store.js';
import type { LiveAccessToken } from '../protocol/access-token/deny-list.js';

export class PrismaAuthorizationCodeStore implements AuthorizationCodeStore {
  constructor(private readonly prisma: PrismaClient) {}

  async save({ authTime, nonce, ...code }: NewAuthorizationCode): Promise<void> {
    await this.prisma.authorizationCode.create({
      data: { ...code, id: randomUUID(), nonce: nonce ?? null, authTime: new Date(authTime * 1000) },
    });
  }

  async saveRedeemed(
    { authTime, nonce, ...code }: NewAuthorizationCode,
    { refreshFamilyId, accessToken }: IssuedTokens,
    now: Date,
  ): Promise<void> {
    await this.prisma.authorizationCode.create({
      data: {
        ...code,
        id: randomUUID(),
        nonce: nonce ?? null,
        authTime: new Date(authTime * 1000),
        redeemedAt: now,
        refreshFamilyId: refreshFamilyId ?? null,
        accessTokenJti: accessToken.jti,
        accessTokenExpiresAt: new Date(accessToken.expiresAt * 1000),
      },
    });
  }

  async findByHash(codeHash: string): Promise<StoredAuthorizationCode | undefined> {
    const row = await this.prisma.authorizationCode.findUnique({
      where: { codeHash },
      include: { consent: { select: { revokedAt: true } } },
    });
    if (!row) return undefined;
    return {
      id: row.id,
      codeHash: row.codeHash,
      clientId: row.clientId,
      userId: row.userId,
      sessionId: row.sessionId,
      consentId: row.consentId,
      redirectUri: row.redirectUri,
      codeChallenge: row.codeChallenge,
      scope: row.scope,
      resources: row.resources,
      ...(row.nonce === null ? {} : { nonce: row.nonce }),
      ...(row.dpopJkt === null ? {} : { dpopJkt: row.dpopJkt }),
      authTime: Math.floor(row.authTime.getTime() / 1000),
      amr: row.amr,
      expiresAt: row.expiresAt,
      redeemedAt: row.redeemedAt,
      consentRevokedAt: row.consent.revokedAt,
    };
  }

  async redeem(id: string, now: Date): Promise<boolean> {
    // One conditional UPDATE: Postgres re-checks `redeemed_at IS NULL` after a concurrent
    // writer commits, so only one of two racing redemptions matches the row.
    const { count } = await this.prisma.authorizationCode.updateMany({
      where: { id, redeemedAt: null, expiresAt: { gt: now } },
      data: { redeemedAt: now },
    });
    return count === 1;
  }

  async recordIssued(
    id: string,
    { refreshFamilyId, accessToken }: IssuedTokens,
  ): Promise<{ reused: boolean }> {
    // Row locks order this against markReused: either it sees what is recorded here, or this
    // sees its mark.
    const [row] = await this.prisma.authorizationCode.updateManyAndReturn({
      where: { id },
      data: {
        refreshFamilyId: refreshFamilyId ?? null,
        accessTokenJti: accessToken.jti,
        accessTokenExpiresAt: new Date(accessToken.expiresAt * 1000),
      },
      select: { reusedAt: true },
    });
    return { reused: row?.reusedAt !== null };
  }

  async markReused(id: string, now: Date): Promise<IssuedTokens | undefined> {
    const [row] = await this.prisma.authorizationCode.updateManyAndReturn({
      where: { id },
      data: { reusedAt: now },
      select: { refreshFamilyId: true, accessTokenJti: true, accessTokenExpiresAt: true },
    });
    if (!row?.accessTokenJti || !row.accessTokenExpiresAt) return undefined;
    return {
      ...(row.refreshFamilyId ? { refreshFamilyId: row.refreshFamilyId } : {}),
      accessToken: { jti: row.accessTokenJti, expiresAt: toEpochSeconds(row.accessTokenExpiresAt) },
    };
  }

  liveAccessTokensOfConsent(consentId: string, now: Date): Promise<LiveAccessToken[]> {
    return this.liveAccessTokens({ consentId }, now);
  }

  liveAccessTokensOfSession(sessionId: string, now: Date): Promise<LiveAccessToken[]> {
    return this.liveAccessTokens({ sessionId }, now);
  }

  async clientsOfSession(sessionId: string): Promise<string[]> {
    const rows = await this.prisma.authorizationCode.findMany({
      where: { sessionId },
      distinct: ['clientId'],
      select: { clientId: true },
      orderBy: { clientId: 'asc' },
    });
    return rows.map((row) => row.clientId);
  }

  private async liveAccessTokens(
    where: { consentId: string } | { sessionId: string },
    now: Date,
  ): Promise<LiveAccessToken[]> {
    const rows = await this.prisma.authorizationCode.findMany({
      where: { ...where, accessTokenExpiresAt: { gt: now } },
      select: { accessTokenJti: true, accessTokenExpiresAt: true },
    });
    return rows.flatMap(({ accessTokenJti, accessTokenExpiresAt }) =>
      accessTokenJti && accessTokenExpiresAt
        ? [{ jti: accessTokenJti, expiresAt: toEpochSeconds(accessTokenExpiresAt) }]
        : [],
    );
  }
}

function toEpochSeconds(date: Date): number {
  return Math.ceil(date.getTime() / 1000);
}
