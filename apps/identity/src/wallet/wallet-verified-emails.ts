import type { VerifiedEmail } from '../accounts/verified-emails.js';
import type { WalletCredentialStore } from './wallet-credential-store.js';

/**
 * The `wallet` verified email source (interface.md 4.3 UserInfo trust order: wallet first): addresses
 * a trusted issuer attested in a verified presentation, the most recently used credential first.
 */
export async function walletVerifiedEmails(
  walletCredentials: Pick<WalletCredentialStore, 'verifiedEmails'>,
  userId: string,
): Promise<VerifiedEmail[]> {
  const emails = await walletCredentials.verifiedEmails(userId);
  return emails.map((email) => ({ email, source: 'wallet' }));
}
