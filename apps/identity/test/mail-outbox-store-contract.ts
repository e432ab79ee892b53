import { describe, expect, it } from 'vitest';
import { newVerification, registered, type StoresUnderTest } from './identity-stores.js';

/** The behaviour every MailOutbox must show (docs/conventions.md #7). */
export function describeMailOutbox(name: string, subject: () => StoresUnderTest): void {
  const stores = () => subject().stores;
  const outbox = () => stores().outbox;
  const pendingIds = async () => (await outbox().pending(1000)).map(({ id }) => id);

  describe(`${name} (MailOutbox contract)`, () => {
    it('hands out unenqueued rows oldest first, up to the limit, as they were written', async () => {
      const before = await pendingIds();
      const { user, verification: first } = await registered(stores());
      const second = newVerification();
      await stores().verifications.reissue(user.emailLower, () => second);
      expect(await pendingIds()).toEqual([...before, first.mail.id, second.mail.id]);
      const rows = await outbox().pending(before.length + 1);
      expect(rows.at(-1)).toMatchObject({ ...first.mail, enqueuedAt: null });
      expect(rows).toHaveLength(before.length + 1);
    });

    it('marks a row enqueued once, erasing its payload', async () => {
      const { verification } = await registered(stores());
      const at = new Date('2030-01-01T00:00:00.000Z');
      await outbox().markEnqueued(verification.mail.id, at);
      await outbox().markEnqueued(verification.mail.id, new Date('2031-01-01T00:00:00.000Z'));
      expect(await pendingIds()).not.toContain(verification.mail.id);
      expect(await subject().probe.outboxRow(verification.mail.id)).toEqual({
        payload: null,
        enqueuedAt: at,
      });
    });
  });
}
