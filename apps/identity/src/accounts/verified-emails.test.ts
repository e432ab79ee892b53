import { useTestEnvironment } from '@authz/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startIdentity,
  tokenOf,
  verificationLinks,
  type IdentityHarness,
} from '../../test/identity-harness.js';

const environment = useTestEnvironment();
let identity: IdentityHarness;

beforeAll(async () => {
  identity = await startIdentity(environment);
});
afterAll(() => identity.close());

describe('GetUser verified_emails (interface.md 4.3 UserInfo, docs/identity.md #13)', () => {
  it('lists no address before verification and the account address as self_reported after', async () => {
    const { user } = await identity.client.register({
      email: 'Judy@Example.com',
      password: 'a fine passphrase',
    });
    const before = await identity.client.getUser({ userId: user!.id });
    expect(before.user?.emailVerified).toBe(false);
    expect(before.verifiedEmails).toEqual([]);

    const [link] = await verificationLinks(identity, 'Judy@Example.com', 1);
    await identity.client.verifyEmail({ token: tokenOf(link!) });
    const after = await identity.client.getUser({ userId: user!.id });
    expect(after.user?.emailVerified).toBe(true);
    expect(after.verifiedEmails).toEqual([
      { $typeName: 'authz.identity.v1.VerifiedEmail', email: 'Judy@Example.com', source: 'self_reported' },
    ]);
  });
});
