import { NotFoundError } from '@authz/shared/errors';
import type { PrismaClient, User } from '../generated/prisma/client.js';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}

/** A malformed id cannot name a user: the same NotFoundError as an unknown one. */
export async function getUser(prisma: PrismaClient, userId: string): Promise<User> {
  const user = isUuid(userId) ? await prisma.user.findUnique({ where: { id: userId } }) : null;
  if (!user) throw new NotFoundError();
  return user;
}
