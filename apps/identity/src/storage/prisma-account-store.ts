import type { AccountStore, NewAccount } from '../accounts/account-store.js';
import type { AuditEntry } from '../audit/audit-log.js';
import { Prisma, type PrismaClient, type User } from '../generated/prisma/client.js';
import type { NewVerification } from '../verification/verification-store.js';
import { recordAudit } from './prisma-audit-log.js';
import { writeVerification } from './prisma-verification-writes.js';

export class PrismaAccountStore implements AccountStore {
  constructor(private readonly prisma: PrismaClient) {}

  async register(
    account: NewAccount,
    verification: NewVerification,
    audit: Omit<AuditEntry, 'actorUserId'>,
  ): Promise<User | undefined> {
    const { passwordHash, ...user } = account;
    try {
      return await this.prisma.$transaction(async (tx) => {
        const created = await tx.user.create({
          data: { ...user, passwordCredential: { create: { hash: passwordHash } } },
        });
        await writeVerification(tx, created.id, verification);
        await recordAudit(tx, { ...audit, actorUserId: created.id });
        return created;
      });
    } catch (error) {
      // The unique index on email_lower decides, so a concurrent registration loses here too.
      if (isUniqueViolation(error)) return undefined;
      throw error;
    }
  }

  async findById(userId: string): Promise<User | undefined> {
    // An account being deleted is gone for every caller (docs/identity.md #19).
    return (await this.prisma.user.findUnique({ where: { id: userId, deletingAt: null } })) ?? undefined;
  }

  async findByEmailKey(emailLower: string): Promise<User | undefined> {
    return (await this.prisma.user.findUnique({ where: { emailLower, deletingAt: null } })) ?? undefined;
  }

  async findForSignIn(
    emailLower: string,
  ): Promise<{ user: User; passwordHash: string | undefined } | undefined> {
    const found = await this.prisma.user.findUnique({
      where: { emailLower, deletingAt: null },
      include: { passwordCredential: true },
    });
    if (!found) return undefined;
    const { passwordCredential, ...user } = found;
    return { user, passwordHash: passwordCredential?.hash };
  }

  async updateName(userId: string, name: string | null, now: Date): Promise<User | undefined> {
    const updated = await this.prisma.user.updateMany({
      where: { id: userId, deletingAt: null },
      data: { name, updatedAt: now },
    });
    return updated.count === 0 ? undefined : this.findById(userId);
  }

  async ensureDeveloper(userId: string): Promise<string> {
    // ON CONFLICT DO NOTHING makes concurrent first uses agree on one row.
    await this.prisma.developer.createMany({ data: [{ userId }], skipDuplicates: true });
    const developer = await this.prisma.developer.findUniqueOrThrow({ where: { userId } });
    return developer.id;
  }
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';
}
