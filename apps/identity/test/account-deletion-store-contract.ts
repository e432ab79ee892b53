import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ORIGIN, registered, type StoresUnderTest } from './identity-stores.js';

/** The behaviour every AccountDeletionStore must show (docs/architecture.md #15, docs/identity.md #19). */
export function describeAccountDeletionStore(name: string, subject: () => StoresUnderTest): void {
  const stores = () => subject().stores;
  const deletions = () => stores().deletions;
  const times = {
    authTime: new Date('2030-01-01T00:00:00.000Z'),
    expiresAt: new Date('2099-01-02T00:00:00.000Z'),
  };

  describe(`${name} (AccountDeletionStore contract)`, () => {
    it('finds the account with its password hash and developer record', async () => {
      const { user } = await registered(stores());
      expect(await deletions().find(user.id)).toEqual({
        userId: user.id,
        passwordHash: '$argon2id$v=19$stand-in',
        developerId: undefined,
        deletingAt: null,
      });
      const developerId = await stores().accounts.ensureDeveloper(user.id);
      expect((await deletions().find(user.id))?.developerId).toBe(developerId);
      expect(await deletions().find(randomUUID())).toBeUndefined();
    });

    it('marks an account deleting once, ends its sessions, and hides it from every lookup', async () => {
      const { user } = await registered(stores());
      await stores().sessions.open({ userId: user.id, ...times, tokenHash: null });
      const at = new Date('2031-01-01T00:00:00.000Z');
      expect(
        await deletions().markDeleting(user.id, at, { type: 'account_deletion_started', origin: ORIGIN }),
      ).toBe(true);
      expect(
        await deletions().markDeleting(user.id, new Date(), {
          type: 'account_deletion_started',
          origin: ORIGIN,
        }),
      ).toBe(true);
      expect((await deletions().find(user.id))?.deletingAt).toEqual(at);
      expect(await stores().sessions.listLive(user.id, new Date())).toEqual([]);
      expect(await stores().accounts.findById(user.id)).toBeUndefined();
      expect(await stores().accounts.findForSignIn(user.emailLower)).toBeUndefined();
      expect(await stores().accounts.updateName(user.id, 'Late', new Date())).toBeUndefined();
      const types = (await subject().probe.auditEvents(user.id)).map(({ type }) => type);
      expect(types.filter((type) => type === 'account_deletion_started')).toHaveLength(1);
      expect(
        await deletions().markDeleting(randomUUID(), at, {
          type: 'account_deletion_started',
          origin: ORIGIN,
        }),
      ).toBe(false);
    });

    it('deletes only a deleting account, rewriting its audit rows to the hash, once', async () => {
      const { user } = await registered(stores());
      const audit = { type: 'account_deleted' as const, origin: ORIGIN, details: { userHash: 'h1' } };
      expect(await deletions().deleteAccount(user.id, 'h1', audit)).toBe('not_deleting');
      expect(await stores().accounts.findById(user.id)).toEqual(user);

      await deletions().markDeleting(user.id, new Date(), {
        type: 'account_deletion_started',
        origin: ORIGIN,
      });
      const outcomes = await Promise.all([1, 2].map(() => deletions().deleteAccount(user.id, 'h1', audit)));
      expect(outcomes.sort()).toEqual(['deleted', 'gone']);
      expect(await deletions().find(user.id)).toBeUndefined();
      expect(await subject().probe.auditEvents(user.id)).toEqual([]);
      const rewritten = await subject().probe.auditEventsWith('actorHash', 'h1');
      expect(rewritten.map(({ type, actorUserId }) => ({ type, actorUserId }))).toEqual([
        { type: 'registration', actorUserId: null },
        { type: 'account_deletion_started', actorUserId: null },
      ]);
      const recorded = await subject().probe.auditEventsWith('userHash', 'h1');
      expect(recorded).toEqual([
        {
          type: 'account_deleted',
          ip: ORIGIN.ip,
          userAgent: ORIGIN.userAgent,
          details: { userHash: 'h1' },
          actorUserId: null,
        },
      ]);
    });

    it('lists deletions begun before an instant, oldest first, up to a limit', async () => {
      const marked: string[] = [];
      for (const minute of [3, 1, 2]) {
        const { user } = await registered(stores());
        await stores().accounts.ensureDeveloper(user.id);
        await deletions().markDeleting(user.id, new Date(Date.UTC(2020, 0, 1, 0, minute)), {
          type: 'account_deletion_started',
          origin: ORIGIN,
        });
        marked[minute] = user.id;
      }
      const before = new Date(Date.UTC(2020, 0, 1, 0, 3));
      const pending = await deletions().listPending(before, 10);
      expect(pending.map(({ userId }) => userId)).toEqual([marked[1], marked[2]]);
      expect(pending.every(({ developerId }) => typeof developerId === 'string')).toBe(true);
      expect(await deletions().listPending(before, 1)).toHaveLength(1);
    });
  });
}
