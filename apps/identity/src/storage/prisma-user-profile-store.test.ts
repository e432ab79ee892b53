import { randomUUID } from 'node:crypto';
import { createPrismaAdapter } from '@authz/shared/database';
import { testLogger, useTestEnvironment } from '@authz/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usePrismaStores } from '../../test/prisma-stores.js';
import { registered } from '../../test/identity-stores.js';
import { PrismaClient } from '../generated/prisma/client.js';
import { PrismaUserProfileStore } from './prisma-user-profile-store.js';

const environment = useTestEnvironment();
const subject = usePrismaStores(environment);
let prisma: PrismaClient;
let profiles: PrismaUserProfileStore;

beforeAll(() => {
  prisma = new PrismaClient({ adapter: createPrismaAdapter(environment.databaseUrl, testLogger()) });
  profiles = new PrismaUserProfileStore(prisma);
});
afterAll(() => prisma?.$disconnect());

const at = (minute: number | null) => (minute === null ? null : new Date(Date.UTC(2030, 0, 1, 0, minute)));

async function wallet(userId: string, email: string | null, created: number, used: number | null) {
  await prisma.walletCredential.create({
    data: {
      userId,
      issuer: 'https://issuer.example',
      subjectHash: randomUUID(),
      email,
      createdAt: at(created)!,
      lastUsedAt: at(used),
    },
  });
}

async function federated(
  userId: string,
  providerId: string,
  email: string | null,
  created: number,
  used: number | null,
) {
  await prisma.federatedCredential.create({
    data: {
      userId,
      providerId,
      issuer: `https://${providerId}.example`,
      subjectHash: randomUUID(),
      email,
      createdAt: at(created)!,
      lastUsedAt: at(used),
    },
  });
}

describe('PrismaUserProfileStore (GetUser, interface.md 4.3)', () => {
  it('reads several accounts with their addresses, the most recently used credential first', async () => {
    const { user: alice } = await registered(subject().stores);
    const { user: bob } = await registered(subject().stores);
    await wallet(alice.id, 'old@wallet.example', 1, 2);
    await wallet(alice.id, 'never-used@wallet.example', 9, null);
    await wallet(alice.id, null, 3, 30);
    await wallet(alice.id, 'recent@wallet.example', 1, 20);
    await federated(alice.id, 'google', 'g@example.com', 1, 5);
    await federated(alice.id, 'github', 'gh@example.com', 2, 10);
    await federated(alice.id, 'gitlab', null, 3, 40);

    const found = await profiles.findProfiles([alice.id, bob.id, randomUUID()]);
    expect([...found.keys()].sort()).toEqual([alice.id, bob.id].sort());
    expect(found.get(alice.id)).toEqual({
      user: {
        id: alice.id,
        email: alice.email,
        emailVerified: false,
        realmId: alice.realmId,
        name: null,
        createdAt: alice.createdAt,
        updatedAt: null,
      },
      walletEmails: ['recent@wallet.example', 'old@wallet.example', 'never-used@wallet.example'],
      federatedEmails: [
        { email: 'gh@example.com', providerId: 'github' },
        { email: 'g@example.com', providerId: 'google' },
      ],
    });
    expect(found.get(bob.id)).toMatchObject({ walletEmails: [], federatedEmails: [] });
  });

  it('leaves out an account being deleted (docs/identity.md #19)', async () => {
    const { user } = await registered(subject().stores);
    await prisma.user.update({ where: { id: user.id }, data: { deletingAt: new Date() } });
    expect((await profiles.findProfiles([user.id])).size).toBe(0);
  });
});
