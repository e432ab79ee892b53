import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ORIGIN, registered, type StoresUnderTest } from './identity-stores.js';

/** The behaviour every WalletCredentialStore must show (docs/conventions.md #7). */
export function describeWalletCredentialStore(name: string, subject: () => StoresUnderTest): void {
  const stores = () => subject().stores;
  const wallet = () => stores().walletCredentials;
  const linkAudit = {
    type: 'wallet_linked',
    origin: ORIGIN,
    details: { issuer: 'https://issuer.example' },
  } as const;
  const signInAudit = { type: 'login_success', origin: ORIGIN, details: { wallet: true } } as const;
  const credential = (email: string | null = null) => ({
    issuer: 'https://issuer.example',
    subjectHash: randomUUID(),
    email,
  });
  const types = async (userId: string) => (await subject().probe.auditEvents(userId)).map(({ type }) => type);
  const session = (expiresAt = new Date('2030-01-02T00:00:00.000Z')) => ({
    authTime: new Date('2030-01-01T00:00:00.000Z'),
    expiresAt,
    tokenHash: randomUUID(),
  });

  describe(`${name} (WalletCredentialStore contract)`, () => {
    it('links a credential once; relinking updates the address without a new event', async () => {
      const { user } = await registered(stores());
      const linked = credential('first@example.com');
      expect(await wallet().link(user.id, linked, linkAudit)).toBe('linked');
      expect(await wallet().link(user.id, { ...linked, email: null }, linkAudit)).toBe('linked');
      expect(await wallet().verifiedEmails(user.id)).toEqual(['first@example.com']);
      expect(await wallet().link(user.id, { ...linked, email: 'second@example.com' }, linkAudit)).toBe(
        'linked',
      );
      expect(await wallet().verifiedEmails(user.id)).toEqual(['second@example.com']);
      expect(await subject().probe.auditEvents(user.id)).toEqual([
        { type: 'registration', ip: ORIGIN.ip, userAgent: ORIGIN.userAgent, details: {} },
        { type: 'wallet_linked', ip: ORIGIN.ip, userAgent: ORIGIN.userAgent, details: linkAudit.details },
      ]);
    });

    it("answers conflict for another account's credential and writes nothing", async () => {
      const { user: owner } = await registered(stores());
      const { user: other } = await registered(stores());
      const held = credential('owner@example.com');
      await wallet().link(owner.id, held, linkAudit);
      expect(await wallet().link(other.id, { ...held, email: 'other@example.com' }, linkAudit)).toBe(
        'conflict',
      );
      expect(await wallet().verifiedEmails(owner.id)).toEqual(['owner@example.com']);
      expect(await wallet().verifiedEmails(other.id)).toEqual([]);
      expect(await types(other.id)).toEqual(['registration']);
    });

    it('lets exactly one of two concurrent links of one credential win', async () => {
      const [{ user: a }, { user: b }] = await Promise.all([registered(stores()), registered(stores())]);
      const contested = credential();
      const outcomes = await Promise.all([
        wallet().link(a.id, contested, linkAudit),
        wallet().link(b.id, contested, linkAudit),
      ]);
      expect(outcomes.sort()).toEqual(['conflict', 'linked']);
    });

    it('links nothing to an unknown account', async () => {
      expect(await wallet().link(randomUUID(), credential(), linkAudit)).toBeUndefined();
    });

    it('signs in with a linked credential: use recorded, session opened, event audited', async () => {
      const { user } = await registered(stores());
      const linked = credential();
      await wallet().link(user.id, linked, linkAudit);
      const opened = session();
      const at = new Date('2030-01-01T00:00:00.000Z');
      const signedIn = await wallet().signIn(
        linked.subjectHash,
        { at, email: 'attested@example.com' },
        opened,
        signInAudit,
      );
      expect(signedIn?.user).toEqual(user);
      expect(signedIn?.session).toMatchObject({ ...opened, userId: user.id, endedAt: null });
      expect(await stores().sessions.findByTokenHash(opened.tokenHash)).toEqual(signedIn);
      expect(await wallet().verifiedEmails(user.id)).toEqual(['attested@example.com']);
      expect(await types(user.id)).toEqual(['registration', 'wallet_linked', 'login_success']);
      expect(
        await wallet().signIn(randomUUID(), { at, email: null }, session(), signInAudit),
      ).toBeUndefined();
    });

    it('lists attested addresses, the most recently used credential first', async () => {
      const { user } = await registered(stores());
      const [older, newer, bare] = [
        credential('older@example.com'),
        credential('newer@example.com'),
        credential(),
      ];
      for (const linked of [older, newer, bare]) await wallet().link(user.id, linked, linkAudit);
      await wallet().signIn(
        newer.subjectHash,
        { at: new Date('2030-01-01T00:00:00.000Z'), email: null },
        session(),
        signInAudit,
      );
      await wallet().signIn(
        older.subjectHash,
        { at: new Date('2030-01-02T00:00:00.000Z'), email: null },
        session(),
        signInAudit,
      );
      expect(await wallet().verifiedEmails(user.id)).toEqual(['older@example.com', 'newer@example.com']);
      expect(await wallet().verifiedEmails(randomUUID())).toEqual([]);
    });
  });
}
