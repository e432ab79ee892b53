import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newVerification, ORIGIN, registered, type StoresUnderTest } from './identity-stores.js';

/** The behaviour every VerificationStore must show (docs/conventions.md #7). */
export function describeVerificationStore(name: string, subject: () => StoresUnderTest): void {
  const stores = () => subject().stores;
  const verifications = () => stores().verifications;
  const audit = { type: 'email_verification', origin: ORIGIN } as const;

  describe(`${name} (VerificationStore contract)`, () => {
    it('reissues for an unverified account only, with its mail', async () => {
      const { user } = await registered(stores(), 'Carol@Example.com');
      const issued = newVerification();
      const seen: unknown[] = [];
      const issue = (account: { id: string; email: string }) => {
        seen.push(account);
        return issued;
      };
      expect(await verifications().reissue('carol@example.com', issue)).toBe(true);
      expect(seen).toEqual([{ id: user.id, email: 'Carol@Example.com' }]);
      expect(await subject().probe.outboxRow(issued.mail.id)).toEqual({
        payload: issued.mail.payload,
        enqueuedAt: null,
      });

      expect(await verifications().reissue('nobody@example.com', issue)).toBe(false);
      expect(await verifications().consume(issued.tokenHash, audit)).toEqual({
        userId: user.id,
        email: 'Carol@Example.com',
      });
      expect(await verifications().reissue('carol@example.com', issue)).toBe(false);
      expect(seen).toHaveLength(1);
    });

    it('consumes a token once, even concurrently, verifying the address and auditing it', async () => {
      const { user, verification } = await registered(stores());
      const results = await Promise.all([
        verifications().consume(verification.tokenHash, audit),
        verifications().consume(verification.tokenHash, audit),
      ]);
      expect(results.filter((result) => result !== undefined)).toEqual([
        { userId: user.id, email: user.email },
      ]);
      const verified = await stores().accounts.findById(user.id);
      expect(verified?.emailVerified).toBe(true);
      expect(verified?.updatedAt).toBeInstanceOf(Date);
      expect((await subject().probe.auditEvents(user.id)).map(({ type, ip }) => [type, ip])).toEqual([
        ['registration', ORIGIN.ip],
        ['email_verification', ORIGIN.ip],
      ]);
      expect(await verifications().consume(verification.tokenHash, audit)).toBeUndefined();
    });

    it('refuses unknown and expired tokens', async () => {
      const { user } = await registered(stores());
      const expired = newVerification({ expiresAt: new Date(Date.now() - 1000) });
      expect(await verifications().reissue(user.emailLower, () => expired)).toBe(true);
      expect(await verifications().consume(expired.tokenHash, audit)).toBeUndefined();
      expect(await verifications().consume(randomUUID(), audit)).toBeUndefined();
      expect((await stores().accounts.findById(user.id))?.emailVerified).toBe(false);
    });
  });
}
