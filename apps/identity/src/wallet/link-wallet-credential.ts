import {
  LinkWalletCredentialOutcome,
  type LinkWalletCredentialRequest,
} from '@authz/proto/identity/v1/identity';
import { NotFoundError } from '@authz/shared/errors';
import { isUuid } from '../accounts/get-user.js';
import type { WalletCredentialStore } from './wallet-credential-store.js';
import { checkWalletCredential, walletSubjectHash } from './wallet-subject.js';

export interface LinkWalletCredentialDeps {
  walletCredentials: Pick<WalletCredentialStore, 'link'>;
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
  if (!isUuid(request.userId)) throw new NotFoundError();
  // A new way into the account is a security event; relinking the same credential is not
  // (the store records the event only for a new link).
  const linked = await deps.walletCredentials.link(
    request.userId,
    { issuer: credential.issuer, subjectHash, email: credential.email },
    { type: 'wallet_linked', origin: request.origin, details: { issuer: credential.issuer } },
  );
  if (!linked) throw new NotFoundError();
  return linked === 'conflict' ? LinkWalletCredentialOutcome.CONFLICT : LinkWalletCredentialOutcome.LINKED;
}
