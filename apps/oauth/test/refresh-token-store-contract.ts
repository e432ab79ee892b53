import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type {
  NewRefreshToken,
  RefreshTokenStore,
} from '../src/protocol/refresh-token/refresh-token-store.js';

/** The behaviour every RefreshTokenStore must show (docs/conventions.md #7). */
export function describeRefreshTokenStore(name: string, store: () => RefreshTokenStore): void {
  const inOneHour = () => new Date(Date.now() + 3_600_000);
  const token = (overrides: Partial<NewRefreshToken> = {}): NewRefreshToken => ({
    tokenHash: randomUUID(),
    expiresAt: inOneHour(),
    accessTokenJti: randomUUID(),
    accessTokenExpiresAt: inOneHour(),
    ...overrides,
  });
  const family = (sessionId: string | null = randomUUID()) => ({
    userId: randomUUID(),
    clientId: 'authz-first-party',
    sessionId,
    scope: 'a b',
    resources: ['https://api.example'],
    consentId: null,
  });

  describe(`${name} (RefreshTokenStore contract)`, () => {
    it('finds a token by hash with its family', async () => {
      const first = token();
      const before = Date.now();
      const familyId = await store().openFamily(family('s-1'), first);
      const found = await store().findByHash(first.tokenHash);
      expect(found).toMatchObject({
        familyId,
        expiresAt: first.expiresAt,
        rotatedAt: null,
        family: {
          id: familyId,
          sessionId: 's-1',
          scope: 'a b',
          resources: ['https://api.example'],
          clientId: 'authz-first-party',
          revokedAt: null,
        },
      });
      expect(found?.issuedAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
      expect(found?.issuedAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
      expect(await store().findByHash(randomUUID())).toBeUndefined();
    });

    it('rotates a token once only, even concurrently', async () => {
      const first = token();
      await store().openFamily(family(), first);
      const results = await Promise.all([
        store().rotate(first.tokenHash, token(), new Date()),
        store().rotate(first.tokenHash, token(), new Date()),
      ]);
      expect(results.sort()).toEqual([false, true]);
      expect((await store().findByHash(first.tokenHash))?.rotatedAt).toBeInstanceOf(Date);
    });

    it('does not rotate an expired token or one of a revoked family', async () => {
      const expired = token({ expiresAt: new Date(Date.now() - 1000) });
      await store().openFamily(family(), expired);
      expect(await store().rotate(expired.tokenHash, token(), new Date())).toBe(false);
      const live = token();
      const familyId = await store().openFamily(family(), live);
      await store().revokeFamily(familyId, new Date());
      expect(await store().rotate(live.tokenHash, token(), new Date())).toBe(false);
    });

    it('revokes a family and reports its live access tokens', async () => {
      const first = token();
      const second = token();
      const familyId = await store().openFamily(family(), first);
      await store().rotate(first.tokenHash, second, new Date());
      const live = await store().revokeFamily(familyId, new Date());
      expect(live.map(({ jti }) => jti).sort()).toEqual([first.accessTokenJti, second.accessTokenJti].sort());
      expect((await store().findByHash(second.tokenHash))?.family.revokedAt).toBeInstanceOf(Date);
    });

    // RFC 9700 section 4.14.2: a revocation must reach every access token of the family, also
    // the one of a rotation racing it; otherwise that token outlives the revoked family.
    it('reports the access token of every rotation that commits beside a revocation', async () => {
      for (let round = 0; round < 50; round += 1) {
        const first = token();
        const next = token();
        const familyId = await store().openFamily(family(), first);
        const [rotated, live] = await Promise.all([
          store().rotate(first.tokenHash, next, new Date()),
          store().revokeFamily(familyId, new Date()),
        ]);
        const denied = live.map(({ jti }) => jti);
        expect(denied).toContain(first.accessTokenJti);
        if (rotated) expect(denied, `round ${round}`).toContain(next.accessTokenJti);
      }
    });

    it('revokes every family of a session and only those', async () => {
      const sessionId = randomUUID();
      const [a, b, other] = [token(), token(), token()];
      await store().openFamily(family(sessionId), a);
      await store().openFamily(family(sessionId), b);
      await store().openFamily(family(), other);
      const live = await store().revokeSessionFamilies(sessionId, new Date());
      expect(live).toHaveLength(2);
      expect((await store().findByHash(a.tokenHash))?.family.revokedAt).toBeInstanceOf(Date);
      expect((await store().findByHash(other.tokenHash))?.family.revokedAt).toBeNull();
    });

    it('revokes every family of a user but the spared session, sessionless ones included', async () => {
      const userId = randomUUID();
      const kept = randomUUID();
      const ofUser = (sessionId: string | null) => ({ ...family(sessionId), userId });
      const [spared, ended, sessionless, stranger] = [token(), token(), token(), token()];
      await store().openFamily(ofUser(kept), spared);
      await store().openFamily(ofUser(randomUUID()), ended);
      await store().openFamily(ofUser(null), sessionless);
      await store().openFamily(family(kept), stranger);
      const { revoked, live } = await store().revokeUserFamilies(userId, kept, new Date());
      expect(revoked).toBe(2);
      expect(live.map(({ jti }) => jti).sort()).toEqual(
        [ended.accessTokenJti, sessionless.accessTokenJti].sort(),
      );
      expect((await store().findByHash(spared.tokenHash))?.family.revokedAt).toBeNull();
      expect((await store().findByHash(stranger.tokenHash))?.family.revokedAt).toBeNull();
      expect((await store().findByHash(sessionless.tokenHash))?.family.revokedAt).toBeInstanceOf(Date);

      const everything = await store().revokeUserFamilies(userId, undefined, new Date());
      expect(everything.revoked).toBe(1);
      expect((await store().findByHash(spared.tokenHash))?.family.revokedAt).toBeInstanceOf(Date);
    });
  });
}
