import type { User } from '../generated/prisma/client.js';

/**
 * Whether the account may open a session by a credential other than its password (whose
 * lookup filters the same way): an account being deleted (docs/identity.md #19) or disabled by an
 * operator (docs/identity.md #24) signs in no more. One place, so a new account state blocks every
 * such sign-in; the trigger `sessions_refuse_disabled_user` backs it in the database.
 */
export function signInAllowed(user: User): boolean {
  return user.deletingAt === null && user.disabledAt === null;
}
