import type { AccountLookupService } from '@authz/proto/identity/v1/identity';
import type { ServiceImplementation } from '@authz/shared/grpc';
import { findUserByVerifiedEmail } from '../accounts/find-user-by-verified-email.js';
import { toUserMessage } from '../accounts/user-view.js';
import type { Registry } from '../registry.js';

/** AccountLookupService: local accounts for identities asserted elsewhere. */
export function accountLookupServiceImplementation(
  registry: Registry,
): ServiceImplementation<typeof AccountLookupService> {
  return {
    async findUserByVerifiedEmail({ email }) {
      return { user: toUserMessage(await findUserByVerifiedEmail(registry.accounts, email)) };
    },
  };
}
