import { keyedHash } from '@authz/shared/crypto';
import type { WalletCredential } from '@authz/proto/identity/v1/identity';
import { InvalidRequestError } from '@authz/shared/errors';
import { parseEmail } from '../accounts/email.js';

/**
 * The issuer-scoped claim strategy (docs/wallet.md "Account mapping"): a credential is named
 * by its issuer together with that issuer's stable subject claim; the same subject value from
 * another issuer is another credential. Only the keyed hash of the pair is stored: the lookup
 * is an exact match, and a copy of the table alone yields no identifier to correlate users
 * across services. JSON encoding keeps the pair unambiguous whatever characters it holds.
 */
export function walletSubjectHash(secretHashKey: Buffer, issuer: string, subject: string): string {
  return keyedHash(secretHashKey, `wallet:${JSON.stringify([issuer, subject])}`);
}

export interface CheckedWalletCredential {
  issuer: string;
  subject: string;
  /** The attested address when it is one; anything else is dropped, not trusted. */
  email: string | null;
}

/** wallet-bridge sends only verified credentials, but an empty name must never match. */
export function checkWalletCredential(credential: WalletCredential | undefined): CheckedWalletCredential {
  if (!credential?.issuer || !credential.subject) {
    throw new InvalidRequestError({ message: 'credential issuer and subject are required' });
  }
  const email = credential.email === undefined ? undefined : parseEmail(credential.email);
  return { issuer: credential.issuer, subject: credential.subject, email: email ?? null };
}
