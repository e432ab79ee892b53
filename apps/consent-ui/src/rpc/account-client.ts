import type { AccountService } from '@authz/proto/identity/v1/accounts';
import type { IdentityService } from '@authz/proto/identity/v1/identity';
import type { AccountLifecycleService } from '@authz/proto/oauth/v1/accounts';
import type { ServiceClient } from '@authz/shared/grpc';
import type { AccountPort } from '../pages/account/account-port.js';

/** AccountPort over identity's and oauth's gRPC contracts; their AppErrors arrive rebuilt. */
export function accountOverGrpc(clients: {
  identity: ServiceClient<typeof IdentityService>;
  accounts: ServiceClient<typeof AccountService>;
  lifecycle: ServiceClient<typeof AccountLifecycleService>;
}): AccountPort {
  return {
    async register({ email, password, origin }) {
      await clients.identity.register({ email, password, origin });
    },
    async listSessions(userId, currentSessionId) {
      const { sessions } = await clients.accounts.listSessions({ userId, currentSessionId });
      return sessions.map((session) => ({
        id: session.id,
        createdAt: Number(session.createdAt),
        lastSeenAt: Number(session.lastSeenAt),
        userAgent: session.userAgent,
      }));
    },
    async updateName({ userId, name, origin }) {
      await clients.accounts.updateProfile({ userId, ...(name === null ? {} : { name }), origin });
    },
    async endSession({ userId, sessionId, origin }) {
      await clients.lifecycle.endUserSession({ userId, sessionId, origin });
    },
    async deleteAccount({ userId, password, origin }) {
      await clients.lifecycle.deleteAccount({ userId, password, origin });
    },
  };
}
