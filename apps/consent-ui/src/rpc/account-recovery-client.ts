import type { AccountRecoveryService } from '@authz/proto/identity/v1/account_recovery';
import type { IdentityService } from '@authz/proto/identity/v1/identity';
import type { UserTokensService } from '@authz/proto/oauth/v1/user_tokens';
import { InternalError } from '@authz/shared/errors';
import type { ServiceClient } from '@authz/shared/grpc';
import type { AccountRecoveryPort } from '../pages/account-recovery/recovery-port.js';

/** AccountRecoveryPort over identity's and oauth's gRPC contracts. */
export function accountRecoveryOverGrpc(clients: {
  identity: ServiceClient<typeof IdentityService>;
  recovery: ServiceClient<typeof AccountRecoveryService>;
  userTokens: ServiceClient<typeof UserTokensService>;
}): AccountRecoveryPort {
  return {
    async requestPasswordReset(email, origin) {
      await clients.recovery.requestPasswordReset({ email, origin });
    },
    async resetPassword(token, password, origin) {
      const { userId } = await clients.recovery.resetPassword({ token, password, origin });
      await clients.userTokens.revokeUserTokens({ userId });
    },
    async changePassword(account, currentPassword, newPassword, origin) {
      await clients.recovery.changePassword({
        userId: account.userId,
        keepSessionId: account.sessionId,
        currentPassword,
        newPassword,
        origin,
      });
      await clients.userTokens.revokeUserTokens({
        userId: account.userId,
        exceptSessionId: account.sessionId,
      });
    },
    async requestEmailChange(account, newEmail, password, origin) {
      await clients.recovery.requestEmailChange({ userId: account.userId, newEmail, password, origin });
    },
    async verifyEmail(token, origin) {
      return (await clients.identity.verifyEmail({ token, origin })).email;
    },
    async signedInAccount(sessionToken) {
      const { user, sessionId, csrfToken } = await clients.identity.getBrowserSession({ sessionToken });
      if (!user || !csrfToken) throw new InternalError({ detail: 'identity answered an incomplete session' });
      return { userId: user.id, sessionId, email: user.email, csrfToken };
    },
  };
}
