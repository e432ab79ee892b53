import type { IdentityService } from '@authz/proto/identity/v1/identity';
import type { SecondFactorService } from '@authz/proto/identity/v1/second_factors';
import { InternalError } from '@authz/shared/errors';
import type { ServiceClient } from '@authz/shared/grpc';
import type { SecondFactorPort } from '../pages/strong-auth/second-factor-port.js';

/** SecondFactorPort over identity's gRPC contracts; its AppErrors arrive rebuilt. */
export function secondFactorsOverGrpc(clients: {
  identity: ServiceClient<typeof IdentityService>;
  secondFactors: ServiceClient<typeof SecondFactorService>;
}): SecondFactorPort {
  return {
    async completeSignIn({ mfaToken, code, origin }) {
      const { sessionToken } = await clients.identity.completeSecondFactor({ mfaToken, code, origin });
      if (!sessionToken) throw new InternalError({ detail: 'identity answered without a session token' });
      return sessionToken;
    },
    async stepUp({ sessionToken, code, origin }) {
      await clients.identity.stepUpSession({ sessionToken, code, origin });
    },
    async factors(userId) {
      const { totp, recoveryCodesLeft } = await clients.secondFactors.getSecondFactors({ userId });
      return { totp, recoveryCodesLeft };
    },
    async beginTotp({ userId, password, origin }) {
      const { secret, otpauthUri } = await clients.secondFactors.beginTotpEnrolment({
        userId,
        password,
        origin,
      });
      return { secret, otpauthUri };
    },
    async confirmTotp({ userId, code, origin }) {
      return (await clients.secondFactors.confirmTotpEnrolment({ userId, code, origin })).recoveryCodes;
    },
    async removeTotp({ userId, password, origin }) {
      await clients.secondFactors.removeTotp({ userId, password, origin });
    },
  };
}
