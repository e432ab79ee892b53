import type { AuditEntry } from '../audit/audit-log.js';
import type { PrismaClient, Session, User } from '../generated/prisma/client.js';
import type { NewSession } from '../sessions/session-store.js';
import type { WalletCredentialStore, WalletCredentialToLink } from '../wallet/wallet-credential-store.js';
import { recordAudit } from './prisma-audit-log.js';
import { refusedSessionAsBadCredentials } from './refused-session.js';

export class PrismaWalletCredentialStore implements WalletCredentialStore {
  constructor(private readonly prisma: PrismaClient) {}

  link(
    userId: string,
    credential: WalletCredentialToLink,
    audit: Omit<AuditEntry, 'actorUserId'>,
  ): Promise<'linked' | 'conflict' | undefined> {
    const { subjectHash } = credential;
    return this.prisma.$transaction(async (tx) => {
      // An account being deleted takes no new credential (docs/identity.md #19).
      const user = await tx.user.findUnique({ where: { id: userId, deletingAt: null } });
      if (!user) return undefined;
      // The unique subject hash decides the owner: two concurrent links never both win.
      const created = await tx.walletCredential.createMany({
        data: [{ userId: user.id, issuer: credential.issuer, subjectHash, email: credential.email }],
        skipDuplicates: true,
      });
      const owner = await tx.walletCredential.findUniqueOrThrow({ where: { subjectHash } });
      if (owner.userId !== user.id) return 'conflict';
      if (created.count === 1) await recordAudit(tx, { ...audit, actorUserId: user.id });
      if (credential.email) {
        await tx.walletCredential.update({ where: { id: owner.id }, data: { email: credential.email } });
      }
      return 'linked';
    });
  }

  signIn(
    subjectHash: string,
    use: { at: Date; email: string | null },
    session: Omit<NewSession, 'userId'>,
    audit: Omit<AuditEntry, 'actorUserId'>,
  ): Promise<{ user: User; session: Session } | undefined> {
    const signedIn = this.prisma.$transaction(async (tx) => {
      const found = await tx.walletCredential.findUnique({ where: { subjectHash }, include: { user: true } });
      // An account being deleted (docs/identity.md #19) or disabled (docs/admin-api.md #4)
      // signs in no more: the same answer as a credential linked to nobody.
      if (!found || found.user.deletingAt !== null || found.user.disabledAt !== null) return undefined;
      await tx.walletCredential.update({
        where: { id: found.id },
        data: { lastUsedAt: use.at, ...(use.email ? { email: use.email } : {}) },
      });
      const opened = await tx.session.create({ data: { ...session, userId: found.userId } });
      await recordAudit(tx, { ...audit, actorUserId: found.userId });
      return { user: found.user, session: opened };
    });
    // The sessions trigger refused an account disabled meanwhile: linked to nobody usable.
    return signedIn.catch((error: unknown) => {
      if (refusedSessionAsBadCredentials(error) !== error) return undefined;
      throw error;
    });
  }

  async verifiedEmails(userId: string): Promise<string[]> {
    const credentials = await this.prisma.walletCredential.findMany({
      where: { userId, email: { not: null } },
      orderBy: [{ lastUsedAt: { sort: 'desc', nulls: 'last' } }, { createdAt: 'desc' }],
      select: { email: true },
    });
    return credentials.map(({ email }) => email!);
  }
}
