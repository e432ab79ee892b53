import type { SignInWithWalletRequest } from '@authz/proto/identity/v1/identity';
import { randomHexToken } from '@authz/shared/crypto';
import { NotFoundError } from '@authz/shared/errors';
import { recordAudit } from '../audit/audit-log.js';
import type { PrismaClient, Session, User } from '../generated/prisma/client.js';
import { csrfTokenFor, sessionTokenHash } from '../sessions/browser-session-token.js';
import { checkWalletCredential, walletSubjectHash } from './wallet-subject.js';

export interface SignInWithWalletDeps {
  prisma: PrismaClient;
  secretHashKey: Buffer;
  sessionTtlSeconds: number;
}

export interface WalletSignIn {
  user: User;
  session: Session;
  sessionToken: string;
  csrfToken: string;
}

/**
 * interface.md 2.6 and 4.5 wallet sign-in: the account the verified credential is linked to gets a
 * browser session, exactly like a hosted password sign-in (docs/identity.md #11, #12), so a
 * later wallet sign-in yields the same `sub`. A credential linked to nobody is NotFoundError:
 * no account is created or matched by email (docs/wallet.md "Account mapping").
 */
export async function signInWithWallet(
  deps: SignInWithWalletDeps,
  request: SignInWithWalletRequest,
): Promise<WalletSignIn> {
  const credential = checkWalletCredential(request.credential);
  const subjectHash = walletSubjectHash(deps.secretHashKey, credential.issuer, credential.subject);
  const sessionToken = randomHexToken();
  const authTime = new Date(Math.floor(Date.now() / 1000) * 1000);
  return deps.prisma.$transaction(async (tx) => {
    const found = await tx.walletCredential.findUnique({ where: { subjectHash }, include: { user: true } });
    if (!found) throw new NotFoundError({ detail: 'wallet credential linked to no account' });
    await tx.walletCredential.update({
      where: { id: found.id },
      data: { lastUsedAt: authTime, ...(credential.email ? { email: credential.email } : {}) },
    });
    const session = await tx.session.create({
      data: {
        userId: found.userId,
        authTime,
        expiresAt: new Date(authTime.getTime() + deps.sessionTtlSeconds * 1000),
        tokenHash: sessionTokenHash(deps.secretHashKey, sessionToken),
      },
    });
    await recordAudit(tx, {
      type: 'login_success',
      actorUserId: found.userId,
      origin: request.origin,
      details: { browserSession: true, wallet: true, issuer: credential.issuer },
    });
    return {
      user: found.user,
      session,
      sessionToken,
      csrfToken: csrfTokenFor(deps.secretHashKey, sessionToken),
    };
  });
}
