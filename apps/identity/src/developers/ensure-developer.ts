import type { AccountStore } from '../accounts/account-store.js';
import { getUser } from '../accounts/get-user.js';

/** docs/contract.md "Accounts and developers": the developer record is created on first use. */
export async function ensureDeveloper(
  accounts: Pick<AccountStore, 'findById' | 'ensureDeveloper'>,
  userId: string,
): Promise<string> {
  await getUser(accounts, userId);
  return accounts.ensureDeveloper(userId);
}
