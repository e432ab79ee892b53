import type { Prisma } from '../generated/prisma/client.js';
import type { NewVerification } from '../verification/verification-store.js';

/** Writes a verification token and its mail's outbox row inside the caller's transaction. */
export async function writeVerification(
  tx: Prisma.TransactionClient,
  userId: string,
  verification: NewVerification,
): Promise<void> {
  await tx.verificationToken.create({
    data: { userId, tokenHash: verification.tokenHash, expiresAt: verification.expiresAt },
  });
  await tx.mailOutbox.create({ data: verification.mail });
}
