import type { MessageInitShape } from '@bufbuild/protobuf';
import type { VerifiedEmailSchema } from '@authz/proto/identity/v1/identity';
import type { User } from '../generated/prisma/client.js';

export type VerifiedEmail = MessageInitShape<typeof VerifiedEmailSchema>;

/** One place verified email attributes come from. */
type VerifiedEmailSource = (user: Pick<User, 'email' | 'emailVerified'>) => VerifiedEmail[];

// A password account's own address, once the link mailed to it was followed (interface.md 3, Email).
const selfReported: VerifiedEmailSource = (user) =>
  user.emailVerified ? [{ email: user.email, source: 'self_reported' }] : [];

/**
 * Every source of verified addresses, each naming itself (docs/identity.md #13). Wallet and
 * `oidc_<provider>` sources join this list when those credentials exist; the trust order of
 * interface.md 4.3 UserInfo (wallet, then oidc_*, then self_reported) is applied by oauth.
 */
const SOURCES: readonly VerifiedEmailSource[] = [selfReported];

export function verifiedEmails(user: Pick<User, 'email' | 'emailVerified'>): VerifiedEmail[] {
  return SOURCES.flatMap((source) => source(user));
}
