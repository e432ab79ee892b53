import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { registered, type StoresUnderTest } from './identity-stores.js';

/** The behaviour every SessionStore must show (docs/conventions.md #7). */
export function describeSessionStore(name: string, subject: () => StoresUnderTest): void {
  const stores = () => subject().stores;
  const sessions = () => stores().sessions;
  const times = {
    authTime: new Date('2030-01-01T00:00:00.000Z'),
    expiresAt: new Date('2030-01-02T00:00:00.000Z'),
  };

  describe(`${name} (SessionStore contract)`, () => {
    it('opens a session and finds it, with its account, by token hash', async () => {
      const { user } = await registered(stores());
      const tokenHash = randomUUID();
      const session = await sessions().open({ userId: user.id, ...times, tokenHash });
      expect(session).toMatchObject({ userId: user.id, ...times, tokenHash, endedAt: null });
      expect(await sessions().findByTokenHash(tokenHash)).toEqual({ session, user });
      expect(await sessions().findByTokenHash(randomUUID())).toBeUndefined();
      const plain = await sessions().open({ userId: user.id, ...times, tokenHash: null });
      expect(plain.tokenHash).toBeNull();
      expect(plain.id).not.toBe(session.id);
    });

    it("ends a live session once, and only its own user's", async () => {
      const { user } = await registered(stores());
      const { user: other } = await registered(stores());
      const tokenHash = randomUUID();
      const session = await sessions().open({ userId: user.id, ...times, tokenHash });
      expect(await sessions().end(session.id, other.id, new Date())).toBe(false);
      const at = new Date('2030-01-01T01:00:00.000Z');
      expect(await sessions().end(session.id, user.id, at)).toBe(true);
      expect(await sessions().end(session.id, user.id, new Date())).toBe(false);
      expect((await sessions().findByTokenHash(tokenHash))?.session.endedAt).toEqual(at);
      expect(await sessions().end(randomUUID(), user.id, new Date())).toBe(false);
    });
  });
}
