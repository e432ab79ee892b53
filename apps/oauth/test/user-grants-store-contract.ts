import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { UserGrantsStore } from '../src/protocol/account-lifecycle/user-grants-store.js';
import type { AuthorizationCodeStore } from '../src/protocol/authorization-code/authorization-code-store.js';
import type { ConsentStore } from '../src/protocol/consent/consent-store.js';
import type { DerivedTokenStore } from '../src/protocol/token-lineage/derived-token-store.js';
import type { RefreshTokenStore } from '../src/protocol/refresh-token/refresh-token-store.js';

export interface UserGrantsStores {
  grants: UserGrantsStore;
  refreshTokens: RefreshTokenStore;
  consents: ConsentStore;
  codes: AuthorizationCodeStore;
  derivedTokens: DerivedTokenStore;
}

/** The behaviour every UserGrantsStore must show (docs/architecture.md #15, docs/tokens.md #33). */
export function describeUserGrantsStore(name: string, subject: () => UserGrantsStores): void {
  const later = new Date(Date.now() + 600_000);

  async function userWithGrants(userId = randomUUID()) {
    const { consents, refreshTokens, codes } = subject();
    const consent = await consents.grant({
      userId,
      clientId: 'app',
      clientName: 'App',
      scopes: ['openid'],
      grantedAt: new Date(),
    });
    const token = (jti: string) => ({
      tokenHash: randomUUID(),
      expiresAt: later,
      accessTokenJti: jti,
      accessTokenExpiresAt: later,
    });
    const family = { userId, clientId: 'app', sessionId: randomUUID(), scope: 'openid', resources: [] };
    await refreshTokens.openFamily({ ...family, consentId: consent.id }, token(`${userId}-a`));
    await refreshTokens.openFamily(
      { ...family, clientId: 'authz-first-party', consentId: null },
      token(`${userId}-b`),
    );
    const code = {
      codeHash: randomUUID(),
      clientId: 'app',
      userId,
      sessionId: family.sessionId,
      consentId: consent.id,
      redirectUri: 'https://app.example/cb',
      codeChallenge: 'x'.repeat(43),
      scope: 'openid',
      resources: [],
      authTime: Math.floor(Date.now() / 1000),
      amr: ['pwd'],
      expiresAt: later,
    };
    await codes.save(code);
    const saved = await codes.findByHash(code.codeHash);
    await codes.redeem(saved!.id, new Date());
    await codes.recordIssued(saved!.id, {
      accessToken: { jti: `${userId}-c`, expiresAt: Math.ceil(later.getTime() / 1000) },
    });
    // A token exchanged from the code's access token, recorded with no family (docs/tokens.md #30).
    await subject().derivedTokens.record({
      jti: `${userId}-d`,
      userId,
      expiresAt: Math.ceil(later.getTime() / 1000),
      lineage: { familyId: null, sessionId: null, consentId: null, rootJti: `${userId}-c` },
    });
    return { userId, consent, codeHash: code.codeHash };
  }

  describe(`${name} (UserGrantsStore contract)`, () => {
    it("revokes every family of the user and reports the user's live access tokens", async () => {
      const { userId } = await userWithGrants();
      const other = await userWithGrants();
      const live = await subject().grants.revokeAll(userId, new Date());
      expect(live.map(({ jti }) => jti).sort()).toEqual([
        `${userId}-a`,
        `${userId}-b`,
        `${userId}-c`,
        `${userId}-d`,
      ]);
      expect(live.every(({ expiresAt }) => expiresAt === Math.ceil(later.getTime() / 1000))).toBe(true);
      // Past their expiry nothing is left to deny.
      expect(await subject().grants.revokeAll(userId, new Date(later.getTime() + 1000))).toEqual([]);
      expect((await subject().consents.listLive(other.userId)).length).toBe(1);
    });

    it("deletes the user's consents, families, codes and derived tokens, and nobody else's; again is a no-op", async () => {
      const { userId, codeHash } = await userWithGrants();
      const other = await userWithGrants();
      await subject().grants.revokeAll(userId, new Date());
      await subject().grants.deleteAll(userId);
      expect(await subject().consents.listLive(userId)).toEqual([]);
      expect(await subject().codes.findByHash(codeHash)).toBeUndefined();
      expect(await subject().grants.revokeAll(userId, new Date())).toEqual([]);
      await subject().grants.deleteAll(userId);
      expect(await subject().codes.findByHash(other.codeHash)).toBeDefined();
      expect((await subject().grants.revokeAll(other.userId, new Date())).length).toBe(4);
    });
  });
}
