import { randomUUID } from 'node:crypto';
import { keyedHash, randomHexToken } from '@authz/shared/crypto';
import { VERIFICATION_EMAIL_JOB } from '@authz/shared/mail';
import type { Prisma } from '../generated/prisma/client.js';
import { sealOutboxPayload } from '../outbox/outbox-payload.js';

export interface IssueVerificationDeps {
  secretHashKey: Buffer;
  outboxKey: Buffer;
  issuer: string;
  verificationTokenTtlSeconds: number;
}

/**
 * Writes a verification token (only its keyed hash, docs/decisions.md #5) and the mail's outbox row
 * inside the caller's transaction (docs/decisions.md #29). The link is docs/contract.md "Mail".
 */
export async function issueVerification(
  tx: Prisma.TransactionClient,
  deps: IssueVerificationDeps,
  user: { id: string; email: string },
): Promise<void> {
  const token = randomHexToken();
  await tx.verificationToken.create({
    data: {
      userId: user.id,
      tokenHash: keyedHash(deps.secretHashKey, token),
      expiresAt: new Date(Date.now() + deps.verificationTokenTtlSeconds * 1000),
    },
  });
  const outboxId = randomUUID();
  const verifyUrl = `${deps.issuer}/auth/verify?token=${token}`;
  await tx.mailOutbox.create({
    data: {
      id: outboxId,
      jobName: VERIFICATION_EMAIL_JOB,
      payload: sealOutboxPayload(deps.outboxKey, outboxId, { to: user.email, verifyUrl }),
    },
  });
}
