import type { VerifiedEmail } from '../accounts/verified-emails.js';
import { providerType } from './federated-subject.js';

/**
 * The `oidc_<provider>` verified email sources (interface.md 4.3 UserInfo trust order: after
 * wallet, before self_reported): addresses an upstream trusted for email said were verified
 * (docs/federation.md #10), the most recently used identity first (as the profile read lists
 * them, accounts/user-profile.ts).
 */
export function federatedVerifiedEmails(
  emails: readonly { email: string; providerId: string }[],
): VerifiedEmail[] {
  return emails.map(({ email, providerId }) => ({ email, source: providerType(providerId) }));
}
