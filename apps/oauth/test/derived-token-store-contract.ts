import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type {
  NewRefreshToken,
  RefreshTokenStore,
} from '../src/protocol/refresh-token/refresh-token-store.js';
import type { DerivedTokenStore, TokenLineage } from '../src/protocol/token-lineage/derived-token-store.js';

/**
 * The behaviour every DerivedTokenStore must show with the RefreshTokenStore it shares a
 * database with (docs/conventions.md #7, docs/tokens.md #30).
 */
export function describeDerivedTokenStore(
  name: string,
  stores: () => { refreshTokens: RefreshTokenStore; derivedTokens: DerivedTokenStore },
): void {
  const inOneHour = () => new Date(Date.now() + 3_600_000);
  const epoch = (date: Date) => Math.ceil(date.getTime() / 1000);
  const token = (): NewRefreshToken => ({
    tokenHash: randomUUID(),
    expiresAt: inOneHour(),
    accessTokenJti: randomUUID(),
    accessTokenExpiresAt: inOneHour(),
  });
  const openFamily = async (sessionId: string) => {
    const first = token();
    const familyId = await stores().refreshTokens.openFamily(
      {
        userId: randomUUID(),
        clientId: 'authz-first-party',
        sessionId,
        scope: '',
        resources: [],
        consentId: null,
      },
      first,
    );
    return { familyId, jti: first.accessTokenJti };
  };
  const derive = async (lineage: TokenLineage, expiresAt = epoch(inOneHour())) => {
    const jti = randomUUID();
    const recorded = await stores().derivedTokens.record({ jti, userId: randomUUID(), expiresAt, lineage });
    return { jti, recorded };
  };

  describe(`${name} (DerivedTokenStore contract)`, () => {
    it("gives a family's access token its family and session, and a derived token what it was recorded with", async () => {
      const sessionId = randomUUID();
      const { familyId, jti } = await openFamily(sessionId);
      const lineage = await stores().derivedTokens.lineageOf(jti);
      expect(lineage).toEqual({ familyId, sessionId, consentId: null, rootJti: jti });
      const derived = await derive(lineage!);
      expect(derived.recorded).toBe(true);
      expect(await stores().derivedTokens.lineageOf(derived.jti)).toEqual(lineage);
      expect(await stores().derivedTokens.lineageOf(randomUUID())).toBeUndefined();
    });

    it('reports derived tokens when their family, or their session, is revoked', async () => {
      const byFamily = await openFamily(randomUUID());
      const lineage = (await stores().derivedTokens.lineageOf(byFamily.jti))!;
      const derived = await derive(lineage);
      const expired = await derive(lineage, epoch(new Date(Date.now() - 1000)));
      const live = await stores().refreshTokens.revokeFamily(byFamily.familyId, new Date());
      expect(live.map(({ jti }) => jti).sort()).toEqual([byFamily.jti, derived.jti].sort());
      expect(live.map(({ jti }) => jti)).not.toContain(expired.jti);

      // A token of the session that is in no family (a code-only token's lineage) goes too.
      const sessionId = randomUUID();
      const bySession = await openFamily(sessionId);
      const inFamily = await derive((await stores().derivedTokens.lineageOf(bySession.jti))!);
      const sessionOnly = await derive({ familyId: null, sessionId, consentId: null, rootJti: randomUUID() });
      const other = await derive({
        familyId: null,
        sessionId: randomUUID(),
        consentId: null,
        rootJti: randomUUID(),
      });
      const ended = (await stores().refreshTokens.revokeSessionFamilies(sessionId, new Date())).map(
        ({ jti }) => jti,
      );
      expect(ended.sort()).toEqual([bySession.jti, inFamily.jti, sessionOnly.jti].sort());
      expect(ended).not.toContain(other.jti);
    });

    it('refuses to record a token whose family is revoked', async () => {
      const { familyId, jti } = await openFamily(randomUUID());
      const lineage = (await stores().derivedTokens.lineageOf(jti))!;
      await stores().refreshTokens.revokeFamily(familyId, new Date());
      expect((await derive(lineage)).recorded).toBe(false);
    });

    it('a recording racing a revocation is either refused or reported (50 rounds)', async () => {
      for (let round = 0; round < 50; round += 1) {
        const { familyId, jti } = await openFamily(randomUUID());
        const lineage = (await stores().derivedTokens.lineageOf(jti))!;
        const [derived, live] = await Promise.all([
          derive(lineage),
          stores().refreshTokens.revokeFamily(familyId, new Date()),
        ]);
        if (derived.recorded) expect(live.map((entry) => entry.jti)).toContain(derived.jti);
      }
    });

    it('lists the live tokens derived from one root', async () => {
      const rootJti = randomUUID();
      const lineage = { familyId: null, sessionId: null, consentId: null, rootJti };
      const first = await derive(lineage);
      const second = await derive(lineage);
      await derive({ ...lineage, rootJti: randomUUID() });
      await derive(lineage, epoch(new Date(Date.now() - 1000)));
      const live = await stores().derivedTokens.liveDerivedFrom(rootJti, new Date());
      expect(live.map(({ jti }) => jti).sort()).toEqual([first.jti, second.jti].sort());
    });
  });
}
