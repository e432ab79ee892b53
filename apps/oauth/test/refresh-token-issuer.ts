import { createPrismaAdapter } from '@authz/shared/database';
import { testLogger } from '@authz/shared/testing';
import { loadOAuthEnv, type OAuthApp } from '../src/app.js';
import { PrismaClient } from '../src/generated/prisma/client.js';
import { mintAccessToken } from '../src/protocol/access-token/access-token.js';
import { createRefreshToken } from '../src/protocol/refresh-token/refresh-token-family.js';
import type { TokenConfig } from '../src/registry.js';
import { PrismaRefreshTokenStore } from '../src/storage/prisma-refresh-token-store.js';

export interface IssuedFamily {
  familyId: string;
  refreshToken: string;
  /** The access token issued with the refresh token; denied when the family is revoked. */
  accessToken: string;
}

export interface FamilySettings {
  clientId: string;
  userId: string;
  scope?: string;
  /** Issue the refresh token this long ago (a negative remaining life makes it expired). */
  issuedSecondsAgo?: number;
}

/**
 * Opens refresh-token families for any client, through the store and the running instance's
 * keys, as a code redemption will (docs/decisions.md #7): until the authorization_code grant
 * exists, no grant gives a confidential client a refresh token.
 */
export class RefreshTokenIssuer {
  private readonly prisma: PrismaClient;
  private readonly store: PrismaRefreshTokenStore;
  private readonly config: TokenConfig;

  constructor(
    source: NodeJS.ProcessEnv,
    private readonly keys: OAuthApp['keys'],
  ) {
    const env = loadOAuthEnv(source);
    this.prisma = new PrismaClient({ adapter: createPrismaAdapter(env.databaseUrl, testLogger()) });
    this.store = new PrismaRefreshTokenStore(this.prisma);
    this.config = {
      issuer: env.issuer,
      accessTokenTtlSeconds: env.accessTokenTtlSeconds,
      refreshTokenTtlSeconds: env.refreshTokenTtlSeconds,
      authorizationCodeTtlSeconds: env.authorizationCodeTtlSeconds,
      secretHashKey: env.secretHashKey,
      idJagAudiences: env.enterprise.idJagAudiences,
    };
  }

  get issuer(): string {
    return this.config.issuer;
  }

  get refreshTokenTtlSeconds(): number {
    return this.config.refreshTokenTtlSeconds;
  }

  async issue({ clientId, userId, scope = '', issuedSecondsAgo = 0 }: FamilySettings): Promise<IssuedFamily> {
    const now = new Date(Date.now() - issuedSecondsAgo * 1000);
    const deps = { keys: this.keys, config: this.config };
    const access = await mintAccessToken(deps, {
      sub: userId,
      clientId,
      audience: clientId,
      scope: scope ? scope.split(' ') : [],
    });
    const refresh = createRefreshToken(deps, access, now);
    const familyId = await this.store.openFamily(
      { userId, clientId, sessionId: null, scope, resources: [], consentId: null },
      refresh.stored,
    );
    return { familyId, refreshToken: refresh.token, accessToken: access.token };
  }

  close(): Promise<void> {
    return this.prisma.$disconnect();
  }
}
