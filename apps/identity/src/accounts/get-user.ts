import { NotFoundError } from '@authz/shared/errors';
import type { User } from '../generated/prisma/client.js';
import type { AccountStore } from './account-store.js';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}

/** A malformed id cannot name a user: the same NotFoundError as an unknown one. */
export async function getUser(accounts: Pick<AccountStore, 'findById'>, userId: string): Promise<User> {
  const user = isUuid(userId) ? await accounts.findById(userId) : undefined;
  if (!user) throw new NotFoundError();
  return user;
}
