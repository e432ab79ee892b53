import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newAccount, newVerification, ORIGIN, registered, type StoresUnderTest } from './identity-stores.js';

/** The behaviour every AccountStore must show (docs/conventions.md #7). */
export function describeAccountStore(name: string, subject: () => StoresUnderTest): void {
  const stores = () => subject().stores;
  const accounts = () => stores().accounts;

  describe(`${name} (AccountStore contract)`, () => {
    it('registers an account with its password, verification, mail and audit event', async () => {
      const realm = await stores().realms.ensureDefault('default', ['openid']);
      const account = newAccount(realm.id, 'Alice@Example.com');
      const verification = newVerification();
      const user = await accounts().register(account, verification, { type: 'registration', origin: ORIGIN });
      expect(user).toMatchObject({
        email: 'Alice@Example.com',
        emailLower: 'alice@example.com',
        emailVerified: false,
        realmId: realm.id,
        name: null,
        updatedAt: null,
      });
      expect(await accounts().findById(user!.id)).toEqual(user);
      expect(await accounts().findByEmailKey('alice@example.com')).toEqual(user);
      expect(await accounts().findForSignIn('alice@example.com')).toEqual({
        user,
        passwordHash: account.passwordHash,
      });
      expect(await subject().probe.outboxRow(verification.mail.id)).toEqual({
        payload: verification.mail.payload,
        enqueuedAt: null,
      });
      expect(await subject().probe.auditEvents(user!.id)).toEqual([
        { type: 'registration', ip: ORIGIN.ip, userAgent: ORIGIN.userAgent, details: {} },
      ]);
      // The token was stored for this account: using it verifies this address.
      expect(
        await stores().verifications.consume(verification.tokenHash, {
          type: 'email_verification',
          origin: undefined,
        }),
      ).toEqual({ userId: user!.id, email: 'Alice@Example.com' });
    });

    it('refuses a taken address, in any case and concurrently, writing nothing', async () => {
      const realm = await stores().realms.ensureDefault('default', ['openid']);
      const { user } = await registered(stores(), 'bob@example.com');
      const second = newVerification();
      const duplicate = await accounts().register(newAccount(realm.id, 'BOB@example.com'), second, {
        type: 'registration',
        origin: ORIGIN,
      });
      expect(duplicate).toBeUndefined();
      expect(await subject().probe.outboxRow(second.mail.id)).toBeUndefined();
      expect(await accounts().findByEmailKey('bob@example.com')).toEqual(user);

      const email = `${randomUUID()}@example.com`;
      const results = await Promise.all(
        [1, 2].map(() =>
          accounts().register(newAccount(realm.id, email), newVerification(), {
            type: 'registration',
            origin: ORIGIN,
          }),
        ),
      );
      expect(results.filter((result) => result !== undefined)).toHaveLength(1);
    });

    it('finds nothing for unknown ids and addresses', async () => {
      expect(await accounts().findById(randomUUID())).toBeUndefined();
      expect(await accounts().findByEmailKey('nobody@example.com')).toBeUndefined();
      expect(await accounts().findForSignIn('nobody@example.com')).toBeUndefined();
    });

    it('creates one developer record per account, even concurrently', async () => {
      const { user } = await registered(stores());
      const { user: other } = await registered(stores());
      const ids = await Promise.all([
        accounts().ensureDeveloper(user.id),
        accounts().ensureDeveloper(user.id),
      ]);
      expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/);
      expect(ids[1]).toBe(ids[0]);
      expect(await accounts().ensureDeveloper(user.id)).toBe(ids[0]);
      expect(await accounts().ensureDeveloper(other.id)).not.toBe(ids[0]);
    });

    it('sets and clears the name with updatedAt, and only for an existing account', async () => {
      const { user } = await registered(stores());
      const at = new Date('2031-02-03T04:05:06.007Z');
      const named = await accounts().updateName(user.id, 'Ada Lovelace', at);
      expect(named).toEqual({ ...user, name: 'Ada Lovelace', updatedAt: at });
      const cleared = await accounts().updateName(user.id, null, at);
      expect(cleared).toEqual({ ...user, name: null, updatedAt: at });
      expect(await accounts().updateName(randomUUID(), 'Nobody', at)).toBeUndefined();
    });
  });
}
