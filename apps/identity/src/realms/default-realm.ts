import type { PrismaClient, Realm } from '../generated/prisma/client.js';

export const DEFAULT_REALM_NAME = 'default';

/**
 * docs/decisions.md #1: one realm to start, created on first start. Replicas may start together,
 * so the insert ignores a concurrent one and the row is read back.
 */
export async function ensureDefaultRealm(prisma: PrismaClient, allowedScopes: string[]): Promise<Realm> {
  await prisma.realm.createMany({
    data: [{ name: DEFAULT_REALM_NAME, isDefault: true, allowedScopes }],
    skipDuplicates: true,
  });
  return prisma.realm.findUniqueOrThrow({ where: { name: DEFAULT_REALM_NAME } });
}
