import type { UserTokensService } from '@authz/proto/oauth/v1/user_tokens';
import type { ServiceImplementation } from '@authz/shared/grpc';
import { revokeUserTokens } from '../protocol/user-tokens/revoke-user-tokens.js';
import type { Registry } from '../registry.js';

/** UserTokensService: a user's tokens end at once (docs/tokens.md #31). */
export function userTokensServiceImplementation(
  deps: Registry,
): ServiceImplementation<typeof UserTokensService> {
  return {
    async revokeUserTokens({ userId, exceptSessionId }) {
      return { revokedFamilies: await revokeUserTokens(deps, userId, exceptSessionId || undefined) };
    },
  };
}
