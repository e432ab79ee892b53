import type { AuditEntry } from '../audit/audit-log.js';
import { Prisma, type PrismaClient } from '../generated/prisma/client.js';
import type {
  AccountRecoveryStore,
  AccountTokenPurpose,
  EmailChangeOutcome,
  LiveAccountToken,
  NewAccountToken,
  OutboxMail,
} from '../recovery/account-recovery-store.js';
import { recordAudit } from './prisma-audit-log.js';

type Audit = Omit<AuditEntry, 'actorUserId' | 'type'>;
type Tx = Prisma.TransactionClient;

export class PrismaAccountRecoveryStore implements AccountRecoveryStore {
  constructor(private readonly prisma: PrismaClient) {}

  issuePasswordReset(
    emailLower: string,
    issue: (user: { id: string; email: string }) => NewAccountToken,
    audit: Audit,
  ): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      // Known and unknown addresses do the same work (docs/identity.md #18): the row lock, a
      // token made and sealed, and one statement that writes only when the account exists.
      const rows = await tx.$queryRaw<{ id: string; email: string }[]>`
        SELECT "id"::text, "email" FROM "identity"."users"
        WHERE "email_lower" = ${emailLower} FOR UPDATE`;
      const user = rows[0];
      const token = issue(user ?? { id: '00000000-0000-0000-0000-000000000000', email: emailLower });
      const userId = user?.id ?? null;
      const written = await tx.$queryRaw<{ issued: number }[]>`
        WITH "retired" AS (
          UPDATE "identity"."account_tokens" SET "used_at" = now()
          WHERE "user_id" = ${userId}::uuid AND "purpose" = 'password_reset' AND "used_at" IS NULL
          RETURNING 1
        ), "token" AS (
          INSERT INTO "identity"."account_tokens" ("id", "user_id", "purpose", "token_hash", "expires_at")
          SELECT gen_random_uuid(), ${userId}::uuid, 'password_reset', ${token.tokenHash}, ${token.expiresAt}
          WHERE ${userId}::uuid IS NOT NULL
          RETURNING 1
        ), "mail" AS (
          INSERT INTO "identity"."mail_outbox" ("id", "job_name", "payload")
          SELECT ${token.mail.id}::uuid, ${token.mail.jobName}, ${token.mail.payload}
          WHERE ${userId}::uuid IS NOT NULL
          RETURNING 1
        ), "audit" AS (
          INSERT INTO "identity"."audit_events" ("type", "actor_user_id", "ip", "user_agent")
          SELECT 'password_reset_requested', ${userId}::uuid, ${audit.origin?.ip || null}, ${audit.origin?.userAgent || null}
          WHERE ${userId}::uuid IS NOT NULL
          RETURNING 1
        )
        -- PostgreSQL runs every data-modifying WITH part, referenced or not.
        SELECT (SELECT count(*) FROM "token")::int AS "issued"`;
      return (written[0]?.issued ?? 0) > 0;
    });
  }

  async findLive(tokenHash: string, purpose: AccountTokenPurpose): Promise<LiveAccountToken | undefined> {
    const found = await this.prisma.accountToken.findFirst({
      where: { tokenHash, purpose, usedAt: null, expiresAt: { gt: new Date() } },
      include: { user: { select: { email: true } } },
    });
    return found ? { userId: found.userId, email: found.user.email, newEmail: found.newEmail } : undefined;
  }

  completePasswordReset(
    tokenHash: string,
    passwordHash: string,
    notice: (user: { email: string }) => OutboxMail,
    audit: Audit,
  ): Promise<string | undefined> {
    return this.prisma.$transaction(async (tx) => {
      const userId = await useToken(tx, tokenHash, 'password_reset');
      if (!userId) return undefined;
      const now = new Date();
      await setPassword(tx, userId, passwordHash, now);
      // The mailbox was proven: the address is verified (interface.md 4.10).
      const user = await tx.user.update({
        where: { id: userId },
        data: { emailVerified: true, updatedAt: now },
      });
      await tx.session.updateMany({ where: { userId, endedAt: null }, data: { endedAt: now } });
      await tx.mailOutbox.create({ data: notice(user) });
      await recordAudit(tx, { ...audit, type: 'password_reset', actorUserId: userId });
      return userId;
    });
  }

  async findPasswordCredential(userId: string): Promise<{ email: string; passwordHash: string } | undefined> {
    const user = await this.prisma.user.findUnique({
      where: { id: userId },
      include: { passwordCredential: true },
    });
    return user?.passwordCredential
      ? { email: user.email, passwordHash: user.passwordCredential.hash }
      : undefined;
  }

  async changePassword(
    userId: string,
    keepSessionId: string,
    passwordHash: string,
    notice: OutboxMail,
    audit: Audit,
  ): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      const now = new Date();
      await setPassword(tx, userId, passwordHash, now);
      const ended = await tx.session.updateMany({
        where: { userId, endedAt: null, id: { not: keepSessionId } },
        data: { endedAt: now },
      });
      await tx.mailOutbox.create({ data: notice });
      await recordAudit(tx, {
        ...audit,
        type: 'password_changed',
        actorUserId: userId,
        details: { sessionId: keepSessionId, endedSessions: String(ended.count) },
      });
    });
  }

  issueEmailChange(
    userId: string,
    token: NewAccountToken & { newEmail: string },
    audit: Audit,
  ): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      const taken = await tx.user.findUnique({ where: { emailLower: token.newEmail.toLowerCase() } });
      if (taken) return false;
      await writeToken(tx, userId, 'email_change', token);
      await recordAudit(tx, { ...audit, type: 'email_change_requested', actorUserId: userId });
      return true;
    });
  }

  async confirmEmailChange(
    tokenHash: string,
    notice: (oldEmail: string) => OutboxMail,
    audit: Audit,
  ): Promise<EmailChangeOutcome> {
    try {
      return await this.prisma.$transaction(async (tx): Promise<EmailChangeOutcome> => {
        const consumed = await tx.$queryRaw<{ user_id: string; new_email: string | null }[]>`
          UPDATE "identity"."account_tokens" SET "used_at" = now()
          WHERE "token_hash" = ${tokenHash} AND "purpose" = 'email_change'
            AND "used_at" IS NULL AND "expires_at" > now()
          RETURNING "user_id"::text, "new_email"`;
        const row = consumed[0];
        if (!row?.new_email) return { outcome: 'invalid' };
        const before = await tx.user.findUniqueOrThrow({ where: { id: row.user_id } });
        // The unique index on email_lower refuses an address another account took meanwhile.
        await tx.user.update({
          where: { id: row.user_id },
          data: {
            email: row.new_email,
            emailLower: row.new_email.toLowerCase(),
            emailVerified: true,
            updatedAt: new Date(),
          },
        });
        await tx.mailOutbox.create({ data: notice(before.email) });
        await recordAudit(tx, { ...audit, type: 'email_changed', actorUserId: row.user_id });
        return { outcome: 'changed', userId: row.user_id, email: row.new_email };
      });
    } catch (error) {
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002')
        return { outcome: 'taken' };
      throw error;
    }
  }
}

/** Retires the account's unused tokens of `purpose` (a newer link replaces older ones), then stores this one. */
async function writeToken(tx: Tx, userId: string, purpose: AccountTokenPurpose, token: NewAccountToken) {
  await tx.accountToken.updateMany({
    where: { userId, purpose, usedAt: null },
    data: { usedAt: new Date() },
  });
  await tx.accountToken.create({
    data: {
      userId,
      purpose,
      tokenHash: token.tokenHash,
      newEmail: token.newEmail ?? null,
      expiresAt: token.expiresAt,
    },
  });
  await tx.mailOutbox.create({ data: token.mail });
}

/** One conditional UPDATE: of two concurrent uses exactly one gets the account id. */
async function useToken(
  tx: Tx,
  tokenHash: string,
  purpose: AccountTokenPurpose,
): Promise<string | undefined> {
  const consumed = await tx.$queryRaw<{ user_id: string }[]>`
    UPDATE "identity"."account_tokens" SET "used_at" = now()
    WHERE "token_hash" = ${tokenHash} AND "purpose" = ${purpose}
      AND "used_at" IS NULL AND "expires_at" > now()
    RETURNING "user_id"::text`;
  return consumed[0]?.user_id;
}

async function setPassword(tx: Tx, userId: string, hash: string, now: Date): Promise<void> {
  await tx.passwordCredential.upsert({
    where: { userId },
    create: { userId, hash },
    update: { hash, updatedAt: now },
  });
}
