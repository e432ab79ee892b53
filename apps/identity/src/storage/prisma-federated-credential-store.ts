import type { AuditEntry } from '../audit/audit-log.js';
import { emailKey } from '../accounts/email.js';
import type { FederatedCredential, Prisma, PrismaClient, User } from '../generated/prisma/client.js';
import type {
  FederatedCredentialStore,
  FederatedSignInAudit,
  SignedIn,
  UnknownSubjectRules,
  UpstreamIdentity,
} from '../federation/federated-credential-store.js';
import { providerType } from '../federation/federated-subject.js';
import { countSignInMethods } from '../federation/sign-in-methods.js';
import type { NewSession } from '../sessions/session-store.js';
import { signInAllowed } from '../sessions/sign-in-allowed.js';
import { recordAudit } from './prisma-audit-log.js';

type Tx = Prisma.TransactionClient;

export class PrismaFederatedCredentialStore implements FederatedCredentialStore {
  constructor(private readonly prisma: PrismaClient) {}

  signIn(
    identity: UpstreamIdentity,
    rules: UnknownSubjectRules,
    session: Omit<NewSession, 'userId'>,
    audit: FederatedSignInAudit,
  ): Promise<SignedIn | undefined> {
    return this.prisma.$transaction(async (tx) => {
      const found = await tx.federatedCredential.findUnique({
        where: { subjectHash: identity.subjectHash },
        include: { user: true },
      });
      const user = found ? found.user : await accountForUnknownSubject(tx, identity, rules, audit);
      if (!user || !signInAllowed(user)) return undefined;
      if (!found) {
        await tx.federatedCredential.create({ data: credentialRow(user.id, identity) });
        await recordAudit(tx, { ...audit.linked, actorUserId: user.id });
      }
      await tx.federatedCredential.update({
        where: { subjectHash: identity.subjectHash },
        // The trusted address follows the upstream: kept while it vouches, dropped when it stops.
        data: { lastUsedAt: session.authTime, email: trustedEmail(identity) },
      });
      const opened = await tx.session.create({ data: { ...session, userId: user.id } });
      await recordAudit(tx, { ...audit.login, actorUserId: user.id });
      return { user, session: opened };
    });
  }

  link(
    userId: string,
    identity: UpstreamIdentity,
    audit: Omit<AuditEntry, 'actorUserId'>,
  ): Promise<'linked' | 'conflict' | undefined> {
    return this.prisma.$transaction(async (tx) => {
      const user = await tx.user.findUnique({ where: { id: userId } });
      if (!user || !signInAllowed(user)) return undefined;
      // The unique subject hash decides the owner: two concurrent links never both win.
      const created = await tx.federatedCredential.createMany({
        data: [credentialRow(user.id, identity)],
        skipDuplicates: true,
      });
      const owner = await tx.federatedCredential.findUniqueOrThrow({
        where: { subjectHash: identity.subjectHash },
      });
      if (owner.userId !== user.id) return 'conflict';
      if (created.count === 1) await recordAudit(tx, { ...audit, actorUserId: user.id });
      await tx.federatedCredential.update({
        where: { id: owner.id },
        data: { email: trustedEmail(identity) },
      });
      return 'linked';
    });
  }

  async list(userId: string): Promise<{ identities: FederatedCredential[]; signInMethods: number }> {
    return this.prisma.$transaction(async (tx) => ({
      identities: await tx.federatedCredential.findMany({
        where: { userId },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      }),
      signInMethods: await countSignInMethods(tx, userId),
    }));
  }

  unlink(
    userId: string,
    credentialId: string,
    audit: Omit<AuditEntry, 'actorUserId'>,
  ): Promise<'unlinked' | 'last_method' | undefined> {
    return this.prisma.$transaction(async (tx) => {
      // Two unlinks at once must not both see a second method left: they take turns on the
      // account row (docs/federation.md #9).
      await tx.$queryRaw`SELECT id FROM identity.users WHERE id = ${userId}::uuid FOR UPDATE`;
      const credential = await tx.federatedCredential.findFirst({ where: { id: credentialId, userId } });
      if (!credential) return undefined;
      if ((await countSignInMethods(tx, userId)) <= 1) return 'last_method';
      await tx.federatedCredential.delete({ where: { id: credential.id } });
      await recordAudit(tx, {
        ...audit,
        actorUserId: userId,
        details: { ...audit.details, provider: providerType(credential.providerId) },
      });
      return 'unlinked';
    });
  }

  async verifiedEmails(userId: string): Promise<{ email: string; providerId: string }[]> {
    const credentials = await this.prisma.federatedCredential.findMany({
      where: { userId, email: { not: null } },
      orderBy: [{ lastUsedAt: { sort: 'desc', nulls: 'last' } }, { createdAt: 'desc' }],
      select: { email: true, providerId: true },
    });
    return credentials.map(({ email, providerId }) => ({ email: email!, providerId }));
  }
}

function credentialRow(userId: string, identity: UpstreamIdentity) {
  return {
    userId,
    providerId: identity.providerId,
    issuer: identity.issuer,
    subjectHash: identity.subjectHash,
    email: trustedEmail(identity),
  };
}

function trustedEmail(identity: UpstreamIdentity): string | null {
  return identity.emailTrusted ? identity.email : null;
}

/**
 * docs/federation.md #7. An address another account holds is joined only when the upstream
 * vouched for it (trustEmail and `email_verified: true`) and that account proved the mailbox
 * too: joining an unverified account would hand a victim's upstream sign-in to whoever
 * registered their address first. A free address makes an account only with createAccounts.
 */
async function accountForUnknownSubject(
  tx: Tx,
  identity: UpstreamIdentity,
  rules: UnknownSubjectRules,
  audit: FederatedSignInAudit,
): Promise<User | undefined> {
  if (identity.email === null) return undefined;
  const holder = await tx.user.findUnique({ where: { emailLower: emailKey(identity.email) } });
  if (holder) {
    const joins = rules.joinByEmail && identity.emailTrusted && holder.emailVerified;
    return joins ? holder : undefined;
  }
  if (!rules.createAccount) return undefined;
  const created = await tx.user.create({
    data: {
      email: identity.email,
      emailLower: emailKey(identity.email),
      emailVerified: identity.emailTrusted,
      realmId: rules.realmId,
    },
  });
  await recordAudit(tx, { ...audit.registration, actorUserId: created.id });
  return created;
}
