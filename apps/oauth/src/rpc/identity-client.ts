import type { CheckCredentialsResponse, IdentityService, User } from '@authz/proto/identity/v1/identity';
import { InternalError } from '@authz/shared/errors';
import type { ServiceClient } from '@authz/shared/grpc';
import type { CheckedCredentials, IdentityPort, IdentityUser } from '../protocol/identity-port.js';

/** IdentityPort over the identity service's gRPC contract; its AppErrors arrive rebuilt. */
export function identityOverGrpc(client: ServiceClient<typeof IdentityService>): IdentityPort {
  return {
    async checkCredentials({ email, password, origin }) {
      const response = await client.checkCredentials({ email, password, origin });
      if (response.mfaToken !== undefined) return { mfaToken: response.mfaToken };
      return toCheckedCredentials(response);
    },
    async completeSecondFactor({ mfaToken, code, origin }) {
      return toCheckedCredentials(await client.completeSecondFactor({ mfaToken, code, origin }));
    },
    async getUser(userId) {
      const response = await client.getUser({ userId });
      return {
        ...toUser(response.user),
        verifiedEmails: response.verifiedEmails.map(({ email, source }) => ({ email, source })),
      };
    },
    async endSession({ sessionId, userId, origin }) {
      await client.endSession({ sessionId, userId, origin });
    },
    async getBrowserSession(sessionToken) {
      const response = await client.getBrowserSession({ sessionToken });
      return {
        sessionId: response.sessionId,
        user: toUser(response.user),
        authTime: Number(response.authTime),
        csrfToken: response.csrfToken,
        amr: response.amr,
      };
    },
  };
}

function toCheckedCredentials(
  response: Pick<CheckCredentialsResponse, 'user' | 'sessionId' | 'authTime' | 'amr'>,
): CheckedCredentials {
  return {
    user: toUser(response.user),
    sessionId: response.sessionId,
    authTime: Number(response.authTime),
    amr: response.amr,
  };
}

function toUser(user: User | undefined): IdentityUser {
  if (!user) throw new InternalError({ detail: 'identity answered without a user' });
  return {
    id: user.id,
    email: user.email,
    emailVerified: user.emailVerified,
    ...(user.name ? { name: user.name } : {}),
  };
}
