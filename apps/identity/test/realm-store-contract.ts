import { describe, expect, it } from 'vitest';
import type { StoresUnderTest } from './identity-stores.js';

/** The behaviour every RealmStore must show (docs/conventions.md #7). */
export function describeRealmStore(name: string, subject: () => StoresUnderTest): void {
  const realms = () => subject().stores.realms;

  describe(`${name} (RealmStore contract)`, () => {
    it('creates the default realm once; later and concurrent calls get the same row unchanged', async () => {
      const [first, second] = await Promise.all([
        realms().ensureDefault('default', ['openid', 'profile']),
        realms().ensureDefault('default', ['openid', 'profile']),
      ]);
      expect(first).toMatchObject({ name: 'default', isDefault: true, allowedScopes: ['openid', 'profile'] });
      expect(second).toEqual(first);
      expect(await realms().ensureDefault('default', ['email'])).toEqual(first);
    });
  });
}
