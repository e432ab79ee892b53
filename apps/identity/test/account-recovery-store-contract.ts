import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { NewAccountToken, OutboxMail } from '../src/recovery/account-recovery-store.js';
import { ORIGIN, registered, type StoresUnderTest } from './identity-stores.js';

/** The behaviour every AccountRecoveryStore must show (docs/conventions.md #7, docs/identity.md #18). */
export function describeAccountRecoveryStore(name: string, subject: () => StoresUnderTest): void {
  const stores = () => subject().stores;
  const recovery = () => stores().recovery;
  const audit = { origin: ORIGIN };
  const mail = (jobName = 'password-changed'): OutboxMail => ({
    id: randomUUID(),
    jobName,
    payload: `sealed-${randomUUID()}`,
  });
  const token = (overrides: Partial<NewAccountToken> = {}): NewAccountToken => ({
    tokenHash: randomUUID(),
    expiresAt: new Date(Date.now() + 3_600_000),
    mail: mail('password-reset'),
    ...overrides,
  });
  const types = async (userId: string) => (await subject().probe.auditEvents(userId)).map(({ type }) => type);

  describe(`${name} (AccountRecoveryStore contract)`, () => {
    it('issues a reset for an account only; a newer one retires the older', async () => {
      const { user } = await registered(stores(), 'Reset@Example.com');
      const first = token();
      const seen: unknown[] = [];
      expect(
        await recovery().issuePasswordReset(
          'reset@example.com',
          (account) => {
            seen.push(account);
            return first;
          },
          audit,
        ),
      ).toBe(true);
      expect(seen).toEqual([{ id: user.id, email: 'Reset@Example.com' }]);
      expect(await subject().probe.outboxRow(first.mail.id)).toEqual({
        payload: first.mail.payload,
        enqueuedAt: null,
      });
      const unknown = token();
      expect(await recovery().issuePasswordReset('nobody@example.com', () => unknown, audit)).toBe(false);
      expect(await subject().probe.outboxRow(unknown.mail.id)).toBeUndefined();
      expect(await recovery().findLive(unknown.tokenHash, 'password_reset')).toBeUndefined();
      expect(await recovery().findLive(first.tokenHash, 'password_reset')).toEqual({
        userId: user.id,
        email: 'Reset@Example.com',
        newEmail: null,
      });
      // Not an email-change token.
      expect(await recovery().findLive(first.tokenHash, 'email_change')).toBeUndefined();

      const second = token();
      await recovery().issuePasswordReset('reset@example.com', () => second, audit);
      expect(await recovery().findLive(first.tokenHash, 'password_reset')).toBeUndefined();
      expect(
        await recovery().completePasswordReset(first.tokenHash, 'new-hash', () => mail(), audit),
      ).toBeUndefined();
      expect(await recovery().findLive(second.tokenHash, 'password_reset')).toBeDefined();
    });

    it('completes a reset once, even concurrently: password, verified address, sessions, notice, audit', async () => {
      const { user } = await registered(stores());
      const session = await stores().sessions.open({
        userId: user.id,
        authTime: new Date(),
        expiresAt: new Date(Date.now() + 60_000),
        tokenHash: null,
      });
      const issued = token();
      await recovery().issuePasswordReset(user.emailLower, () => issued, audit);
      const notices: OutboxMail[] = [];
      const notice = () => {
        const next = mail();
        notices.push(next);
        return next;
      };
      const results = await Promise.all([
        recovery().completePasswordReset(issued.tokenHash, 'hash-a', notice, audit),
        recovery().completePasswordReset(issued.tokenHash, 'hash-b', notice, audit),
      ]);
      expect(results.filter((result) => result !== undefined)).toEqual([user.id]);
      const credential = await recovery().findPasswordCredential(user.id);
      expect(['hash-a', 'hash-b']).toContain(credential?.passwordHash);
      expect((await stores().accounts.findById(user.id))?.emailVerified).toBe(true);
      expect(await stores().sessions.end(session.id, user.id, new Date())).toBe(false);
      const committed = await Promise.all(notices.map((row) => subject().probe.outboxRow(row.id)));
      expect(committed.filter((row) => row !== undefined)).toHaveLength(1);
      expect(await types(user.id)).toEqual(['registration', 'password_reset_requested', 'password_reset']);
    });

    it('refuses expired tokens', async () => {
      const { user } = await registered(stores());
      const expired = token({ expiresAt: new Date(Date.now() - 1000) });
      await recovery().issuePasswordReset(user.emailLower, () => expired, audit);
      expect(await recovery().findLive(expired.tokenHash, 'password_reset')).toBeUndefined();
      expect(
        await recovery().completePasswordReset(expired.tokenHash, 'hash', () => mail(), audit),
      ).toBeUndefined();
    });

    it('changes a password, ending every session but the kept one', async () => {
      const { user } = await registered(stores());
      const open = () =>
        stores().sessions.open({
          userId: user.id,
          authTime: new Date(),
          expiresAt: new Date(Date.now() + 60_000),
          tokenHash: null,
        });
      const kept = await open();
      const other = await open();
      await recovery().changePassword(user.id, kept.id, 'changed-hash', mail(), audit);
      expect((await recovery().findPasswordCredential(user.id))?.passwordHash).toBe('changed-hash');
      expect(await stores().sessions.end(other.id, user.id, new Date())).toBe(false);
      expect(await stores().sessions.end(kept.id, user.id, new Date())).toBe(true);
      expect(await types(user.id)).toEqual(['registration', 'password_changed']);
    });

    it('changes the address only on confirmation, refusing a taken one', async () => {
      const { user } = await registered(stores(), 'before@example.com');
      const { user: holder } = await registered(stores(), 'holder@example.com');
      expect(
        await recovery().issueEmailChange(user.id, { ...token(), newEmail: 'HOLDER@example.com' }, audit),
      ).toBe(false);

      const change = { ...token({ mail: mail('email-change') }), newEmail: 'After@Example.com' };
      expect(await recovery().issueEmailChange(user.id, change, audit)).toBe(true);
      expect((await stores().accounts.findById(user.id))?.email).toBe('before@example.com');
      const notice = mail('email-changed');
      const seen: string[] = [];
      const confirmed = await recovery().confirmEmailChange(
        change.tokenHash,
        (old) => {
          seen.push(old);
          return notice;
        },
        audit,
      );
      expect(confirmed).toEqual({ outcome: 'changed', userId: user.id, email: 'After@Example.com' });
      expect(seen).toEqual(['before@example.com']);
      expect(await stores().accounts.findByEmailKey('after@example.com')).toMatchObject({
        id: user.id,
        emailVerified: true,
      });
      expect(await subject().probe.outboxRow(notice.id)).toBeDefined();
      expect(await recovery().confirmEmailChange(change.tokenHash, () => mail(), audit)).toEqual({
        outcome: 'invalid',
      });

      // Taken between the request and the confirmation: nothing changes, the token stays.
      const race = { ...token(), newEmail: 'race@example.com' };
      expect(await recovery().issueEmailChange(holder.id, race, audit)).toBe(true);
      await registered(stores(), 'Race@example.com');
      expect(await recovery().confirmEmailChange(race.tokenHash, () => mail(), audit)).toEqual({
        outcome: 'taken',
      });
      expect((await stores().accounts.findById(holder.id))?.email).toBe('holder@example.com');
      expect(await recovery().findLive(race.tokenHash, 'email_change')).toBeDefined();
      expect(await types(user.id)).toEqual(['registration', 'email_change_requested', 'email_changed']);
    });
  });
}
