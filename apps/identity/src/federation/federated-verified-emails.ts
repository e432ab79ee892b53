import type { VerifiedEmail } from '../accounts/verified-emails.js';
import type { FederatedCredentialStore } from './federated-credential-store.js';
import { providerType } from './federated-subject.js';

/**
 * The `oidc_<provider>` verified email sources (interface.md 4.3 UserInfo trust order: after
 * wallet, before self_reported): addresses an upstream trusted for email said were verified
 * (docs/federation.md #10), the most recently used identity first.
 */
export async function federatedVerifiedEmails(
  federatedCredentials: Pick<FederatedCredentialStore, 'verifiedEmails'>,
  userId: string,
): Promise<VerifiedEmail[]> {
  const emails = await federatedCredentials.verifiedEmails(userId);
  return emails.map(({ email, providerId }) => ({ email, source: providerType(providerId) }));
}
