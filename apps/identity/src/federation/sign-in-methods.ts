import type { Prisma } from '../generated/prisma/client.js';

/**
 * How many ways into the account there are (docs/federation.md #9): the password, each wallet
 * credential and each upstream identity. Unlinking never takes the count to zero. A new kind
 * of credential (passkeys) adds its count here.
 */
export async function countSignInMethods(tx: Prisma.TransactionClient, userId: string): Promise<number> {
  const [password, wallets, upstreams] = await Promise.all([
    tx.passwordCredential.count({ where: { userId } }),
    tx.walletCredential.count({ where: { userId } }),
    tx.federatedCredential.count({ where: { userId } }),
  ]);
  return password + wallets + upstreams;
}
