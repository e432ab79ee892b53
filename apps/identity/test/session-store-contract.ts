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

    it('keeps the user agent and starts lastSeenAt at the sign-in', async () => {
      const { user } = await registered(stores());
      const session = await sessions().open({
        userId: user.id,
        ...times,
        tokenHash: null,
        userAgent: 'Agent/1',
      });
      expect(session).toMatchObject({ userAgent: 'Agent/1', lastSeenAt: times.authTime });
      const bare = await sessions().open({ userId: user.id, ...times, tokenHash: null });
      expect(bare.userAgent).toBeNull();
    });

    it("lists only the user's live sessions, oldest first, and finds one of them", async () => {
      const { user } = await registered(stores());
      const { user: other } = await registered(stores());
      const now = new Date('2030-01-01T12:00:00.000Z');
      const first = await sessions().open({ userId: user.id, ...times, tokenHash: null });
      const second = await sessions().open({ userId: user.id, ...times, tokenHash: null });
      const ended = await sessions().open({ userId: user.id, ...times, tokenHash: null });
      await sessions().end(ended.id, user.id, now);
      const expired = await sessions().open({
        userId: user.id,
        authTime: times.authTime,
        expiresAt: new Date('2030-01-01T06:00:00.000Z'),
        tokenHash: null,
      });
      const foreign = await sessions().open({ userId: other.id, ...times, tokenHash: null });
      expect((await sessions().listLive(user.id, now)).map(({ id }) => id)).toEqual([first.id, second.id]);
      expect(await sessions().findLive(user.id, second.id, now)).toEqual(second);
      for (const id of [ended.id, expired.id, foreign.id, randomUUID()]) {
        expect(await sessions().findLive(user.id, id, now)).toBeUndefined();
      }
    });

    it('notes a use only when the last one is older than the given instant, never on an ended session', async () => {
      const { user } = await registered(stores());
      const session = await sessions().open({ userId: user.id, ...times, tokenHash: null });
      const later = new Date('2030-01-01T00:10:00.000Z');
      // Fresh: seen at the sign-in, which is not before the cut-off.
      await sessions().touch(session.id, later, times.authTime);
      expect((await sessions().findLive(user.id, session.id, later))?.lastSeenAt).toEqual(times.authTime);
      await sessions().touch(session.id, later, new Date('2030-01-01T00:05:00.000Z'));
      expect((await sessions().findLive(user.id, session.id, later))?.lastSeenAt).toEqual(later);
      await sessions().end(session.id, user.id, later);
      await sessions().touch(
        session.id,
        new Date('2030-01-01T01:00:00.000Z'),
        new Date('2030-01-01T00:59:00.000Z'),
      );
      const [row] = (await sessions().listLive(user.id, times.authTime)).filter(
        ({ id }) => id === session.id,
      );
      expect(row).toBeUndefined();
    });
  });
}
