import { NotFoundError } from '@authz/shared/errors';
import type { User } from '../generated/prisma/client.js';
import type { AccountStore } from './account-store.js';
import { emailKey, parseEmail } from './email.js';

/**
 * docs/identity.md #15: the account whose address is `email` and verified, for an identity a
 * trusted enterprise issuer asserts (docs/enterprise-assertions.md). An unverified address
 * names nobody: whoever registered it never proved they own it. Unknown, unverified and
 * malformed are the same NotFoundError.
 */
export async function findUserByVerifiedEmail(
  accounts: Pick<AccountStore, 'findByEmailKey'>,
  email: string,
): Promise<User> {
  const address = parseEmail(email);
  const user = address ? await accounts.findByEmailKey(emailKey(address)) : undefined;
  if (!user?.emailVerified) throw new NotFoundError();
  return user;
}
