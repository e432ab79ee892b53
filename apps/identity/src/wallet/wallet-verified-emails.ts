import type { PrismaClient } from '../generated/prisma/client.js';
import type { VerifiedEmail } from '../accounts/verified-emails.js';

/**
 * The `wallet` verified email source (interface.md 4.3 UserInfo trust order: wallet first): addresses
 * a trusted issuer attested in a verified presentation, the most recently used credential first.
 */
export async function walletVerifiedEmails(prisma: PrismaClient, userId: string): Promise<VerifiedEmail[]> {
  const credentials = await prisma.walletCredential.findMany({
    where: { userId, email: { not: null } },
    orderBy: [{ lastUsedAt: { sort: 'desc', nulls: 'last' } }, { createdAt: 'desc' }],
    select: { email: true },
  });
  return credentials.map(({ email }) => ({ email: email!, source: 'wallet' }));
}
