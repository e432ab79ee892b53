import type { AuditEntry } from '../audit/audit-log.js';
import type {
  AccountDeletionStore,
  DeletableAccount,
  PendingDeletion,
} from '../deletion/account-deletion-store.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { recordAudit } from './prisma-audit-log.js';

export class PrismaAccountDeletionStore implements AccountDeletionStore {
  constructor(private readonly prisma: PrismaClient) {}

  async find(userId: string): Promise<DeletableAccount | undefined> {
    const found = await this.prisma.user.findUnique({
      where: { id: userId },
      include: { passwordCredential: true, developer: true },
    });
    if (!found) return undefined;
    return {
      userId: found.id,
      passwordHash: found.passwordCredential?.hash,
      developerId: found.developer?.id,
      deletingAt: found.deletingAt,
    };
  }

  markDeleting(userId: string, now: Date, audit: AuditEntry): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      const marked = await tx.user.updateMany({
        where: { id: userId, deletingAt: null },
        data: { deletingAt: now },
      });
      if (
        marked.count === 0 &&
        !(await tx.user.findUnique({ where: { id: userId }, select: { id: true } }))
      ) {
        return false;
      }
      await tx.session.updateMany({ where: { userId, endedAt: null }, data: { endedAt: now } });
      if (marked.count === 1) await recordAudit(tx, { ...audit, actorUserId: audit.actorUserId ?? userId });
      return true;
    });
  }

  deleteAccount(
    userId: string,
    actorHash: string,
    audit: Omit<AuditEntry, 'actorUserId'>,
  ): Promise<'deleted' | 'gone' | 'not_deleting'> {
    return this.prisma.$transaction(async (tx) => {
      // The row lock orders this against a concurrent completion of the same deletion.
      const rows = await tx.$queryRaw<{ deleting_at: Date | null }[]>`
        SELECT deleting_at FROM identity.users WHERE id = ${userId}::uuid FOR UPDATE`;
      const row = rows[0];
      if (!row) return 'gone';
      if (row.deleting_at === null) return 'not_deleting';
      await tx.$executeRaw`
        UPDATE identity.audit_events
           SET actor_user_id = NULL,
               details = details || jsonb_build_object('actorHash', ${actorHash}::text)
         WHERE actor_user_id = ${userId}::uuid`;
      // An admin's actions on the account name it as their target (docs/admin-api.md #8).
      await tx.$executeRaw`
        UPDATE identity.audit_events
           SET details = (details - 'targetUserId') || jsonb_build_object('targetHash', ${actorHash}::text)
         WHERE details->>'targetUserId' = ${userId}`;
      // Credentials, sessions, verification tokens, wallet credentials and the developer
      // record go with the user (ON DELETE CASCADE).
      await tx.user.delete({ where: { id: userId } });
      await recordAudit(tx, audit);
      return 'deleted';
    });
  }

  async listPending(before: Date, limit: number): Promise<PendingDeletion[]> {
    const users = await this.prisma.user.findMany({
      where: { deletingAt: { not: null, lt: before } },
      orderBy: { deletingAt: 'asc' },
      take: limit,
      include: { developer: true },
    });
    return users.map((user) => ({ userId: user.id, developerId: user.developer?.id }));
  }
}
