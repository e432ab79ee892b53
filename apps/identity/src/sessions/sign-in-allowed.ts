import type { User } from '../generated/prisma/client.js';

/**
 * Whether the account may open a session by a credential other than its password (whose
 * lookup filters the same way): an account being deleted signs in no more
 * (docs/identity.md #19). One place, so a new account state blocks every such sign-in.
 */
export function signInAllowed(user: User): boolean {
  return user.deletingAt === null;
}
