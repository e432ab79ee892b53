import {
  LinkWalletCredentialOutcome,
  type LinkWalletCredentialRequest,
} from '@authz/proto/identity/v1/identity';
import { NotFoundError } from '@authz/shared/errors';
import { isUuid } from '../accounts/get-user.js';
import { recordAudit } from '../audit/audit-log.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { checkWalletCredential, walletSubjectHash } from './wallet-subject.js';

export interface LinkWalletCredentialDeps {
  prisma: PrismaClient;
  secretHashKey: Buffer;
}

/**
 * interface.md 3 wallet-link: LINKED when the credential is (now, or already) this user's, CONFLICT
 * when another account holds it. The unique subject hash decides the owner, so two concurrent
 * links of one credential never both win; a conflict writes nothing, and the whole step is one
 * transaction, so nothing is ever partially linked.
 */
export async function linkWalletCredential(
  deps: LinkWalletCredentialDeps,
  request: LinkWalletCredentialRequest,
): Promise<LinkWalletCredentialOutcome> {
  const credential = checkWalletCredential(request.credential);
  const subjectHash = walletSubjectHash(deps.secretHashKey, credential.issuer, credential.subject);
  return deps.prisma.$transaction(async (tx) => {
    const user = isUuid(request.userId) ? await tx.user.findUnique({ where: { id: request.userId } }) : null;
    if (!user) throw new NotFoundError();
    const created = await tx.walletCredential.createMany({
      data: [{ userId: user.id, issuer: credential.issuer, subjectHash, email: credential.email }],
      skipDuplicates: true,
    });
    const owner = await tx.walletCredential.findUniqueOrThrow({ where: { subjectHash } });
    if (owner.userId !== user.id) return LinkWalletCredentialOutcome.CONFLICT;
    // A new way into the account is a security event; relinking the same credential is not.
    if (created.count === 1) {
      await recordAudit(tx, {
        type: 'wallet_linked',
        actorUserId: user.id,
        origin: request.origin,
        details: { issuer: credential.issuer },
      });
    }
    if (credential.email) {
      await tx.walletCredential.update({ where: { id: owner.id }, data: { email: credential.email } });
    }
    return LinkWalletCredentialOutcome.LINKED;
  });
}
