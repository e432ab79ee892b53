import type { createPrismaAdapter } from '@authz/shared/database';
import { PrismaClient } from '../generated/prisma/client.js';
import { PrismaAdminStore } from '../storage/prisma-admin-store.js';
import { setAdminRole, type RoleChange } from './grant-admin-role.js';

const MESSAGES: Record<RoleChange, (email: string) => string> = {
  granted: (email) => `admin role granted to ${email}`,
  revoked: (email) => `admin role revoked from ${email}`,
  already_admin: (email) => `${email} already holds the admin role; nothing changed`,
  not_admin: (email) => `${email} does not hold the admin role; nothing changed`,
  unknown_account: (email) => `no account has the address ${email}`,
  invalid_email: (email) => `not an email address: ${email}`,
};

const EXIT_CODES: Record<RoleChange, number> = {
  granted: 0,
  revoked: 0,
  already_admin: 0,
  not_admin: 0,
  unknown_account: 1,
  invalid_email: 2,
};

/** Opens the database, sets the role, closes it; the line to print and the exit code. */
export async function runGrantAdmin(
  adapter: ReturnType<typeof createPrismaAdapter>,
  email: string,
  grant: boolean,
): Promise<{ message: string; exitCode: number }> {
  const prisma = new PrismaClient({ adapter });
  try {
    const outcome = await setAdminRole({ admin: new PrismaAdminStore(prisma) }, email, grant);
    return { message: MESSAGES[outcome](email.trim()), exitCode: EXIT_CODES[outcome] };
  } catch (error) {
    return { message: `admin role not changed: ${(error as Error).message}`, exitCode: 1 };
  } finally {
    await prisma.$disconnect();
  }
}
