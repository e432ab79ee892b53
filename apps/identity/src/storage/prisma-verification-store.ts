import type { AuditEntry } from '../audit/audit-log.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { NewVerification, VerificationStore } from '../verification/verification-store.js';
import { recordAudit } from './prisma-audit-log.js';
import { writeVerification } from './prisma-verification-writes.js';

export class PrismaVerificationStore implements VerificationStore {
  constructor(private readonly prisma: PrismaClient) {}

  reissue(
    emailLower: string,
    issue: (user: { id: string; email: string }) => NewVerification,
  ): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      // The row lock gives unknown, verified and unverified addresses the same work shape.
      const rows = await tx.$queryRaw<{ id: string; email: string; email_verified: boolean }[]>`
        SELECT "id"::text, "email", "email_verified" FROM "identity"."users"
        WHERE "email_lower" = ${emailLower} FOR UPDATE`;
      const user = rows[0];
      if (!user || user.email_verified) return false;
      await writeVerification(tx, user.id, issue({ id: user.id, email: user.email }));
      return true;
    });
  }

  consume(
    tokenHash: string,
    audit: Omit<AuditEntry, 'actorUserId'>,
  ): Promise<{ userId: string; email: string } | undefined> {
    return this.prisma.$transaction(async (tx) => {
      // One conditional UPDATE: of two concurrent uses exactly one wins.
      const consumed = await tx.$queryRaw<{ user_id: string }[]>`
        UPDATE "identity"."verification_tokens" SET "used_at" = now()
        WHERE "token_hash" = ${tokenHash} AND "used_at" IS NULL AND "expires_at" > now()
        RETURNING "user_id"::text`;
      const userId = consumed[0]?.user_id;
      if (!userId) return undefined;
      const user = await tx.user.update({
        where: { id: userId },
        data: { emailVerified: true, updatedAt: new Date() },
      });
      await recordAudit(tx, { ...audit, actorUserId: user.id });
      return { userId: user.id, email: user.email };
    });
  }
}
