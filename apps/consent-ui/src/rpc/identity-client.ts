import type { IdentityService } from '@authz/proto/identity/v1/identity';
import { InternalError } from '@authz/shared/errors';
import type { ServiceClient } from '@authz/shared/grpc';
import type { IdentityPort } from '../pages/sign-in/identity-port.js';

/** IdentityPort over the identity service's gRPC contract; its AppErrors arrive rebuilt. */
export function identityOverGrpc(client: ServiceClient<typeof IdentityService>): IdentityPort {
  return {
    async signIn({ email, password, origin }) {
      const response = await client.checkCredentials({ email, password, origin, browserSession: true });
      if (response.mfaToken !== undefined) return { mfaToken: response.mfaToken };
      if (!response.sessionToken)
        throw new InternalError({ detail: 'identity answered without a session token' });
      return { sessionToken: response.sessionToken };
    },
    async getBrowserSession(sessionToken) {
      const { user, csrfToken, authTime, sessionId, amr } = await client.getBrowserSession({ sessionToken });
      if (!user || !csrfToken) throw new InternalError({ detail: 'identity answered an incomplete session' });
      return {
        email: user.email,
        csrfToken,
        authTime: Number(authTime),
        userId: user.id,
        sessionId,
        emailVerified: user.emailVerified,
        amr,
        ...(user.name === undefined ? {} : { name: user.name }),
      };
    },
  };
}
