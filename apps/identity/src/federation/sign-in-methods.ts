import type { Prisma } from '../generated/prisma/client.js';

/**
 * How many ways into the account there are (docs/federation.md #9): the password, each wallet
 * credential, each upstream identity and each passkey (docs/strong-authentication.md #19).
 * Unlinking never takes the count to zero.
 */
export async function countSignInMethods(tx: Prisma.TransactionClient, userId: string): Promise<number> {
  const [password, wallets, upstreams, passkeys] = await Promise.all([
    tx.passwordCredential.count({ where: { userId } }),
    tx.walletCredential.count({ where: { userId } }),
    tx.federatedCredential.count({ where: { userId } }),
    tx.passkey.count({ where: { userId } }),
  ]);
  return password + wallets + upstreams + passkeys;
}
