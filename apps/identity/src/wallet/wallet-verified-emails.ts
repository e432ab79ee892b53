import type { VerifiedEmail } from '../accounts/verified-emails.js';

/**
 * The `wallet` verified email source (interface.md 4.3 UserInfo trust order: wallet first): addresses
 * a trusted issuer attested in a verified presentation, the most recently used credential first
 * (as the profile read lists them, accounts/user-profile.ts).
 */
export function walletVerifiedEmails(emails: readonly string[]): VerifiedEmail[] {
  return emails.map((email) => ({ email, source: 'wallet' }));
}
