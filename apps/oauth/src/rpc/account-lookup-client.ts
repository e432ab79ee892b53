import type { AccountLookupService } from '@authz/proto/identity/v1/identity';
import { InternalError } from '@authz/shared/errors';
import type { ServiceClient } from '@authz/shared/grpc';
import type { IdentityUser } from '../protocol/identity-port.js';

/** identity's AccountLookupService (docs/identity.md #15); NotFoundError arrives rebuilt. */
export function findUserByVerifiedEmailOverGrpc(
  client: ServiceClient<typeof AccountLookupService>,
): (email: string) => Promise<IdentityUser> {
  return async (email) => {
    const { user } = await client.findUserByVerifiedEmail({ email });
    if (!user) throw new InternalError({ detail: 'identity answered without a user' });
    return {
      id: user.id,
      email: user.email,
      emailVerified: user.emailVerified,
      ...(user.name ? { name: user.name } : {}),
    };
  };
}
