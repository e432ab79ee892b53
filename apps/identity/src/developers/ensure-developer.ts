import type { PrismaClient } from '../generated/prisma/client.js';
import { getUser } from '../accounts/get-user.js';

/**
 * docs/contract.md "Accounts and developers": the developer record is created on first use.
 * ON CONFLICT DO NOTHING makes concurrent first uses agree on one row.
 */
export async function ensureDeveloper(prisma: PrismaClient, userId: string): Promise<string> {
  await getUser(prisma, userId);
  await prisma.developer.createMany({ data: [{ userId }], skipDuplicates: true });
  const developer = await prisma.developer.findUniqueOrThrow({ where: { userId } });
  return developer.id;
}
