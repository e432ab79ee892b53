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
      const { totp, recoveryCodesLeft, passkeys } = await clients.secondFactors.getSecondFactors({ userId });
      return {
        totp,
        recoveryCodesLeft,
        passkeys: passkeys.map((passkey) => ({
          id: passkey.id,
          name: passkey.name,
          createdAt: Number(passkey.createdAt),
          lastUsedAt: passkey.lastUsedAt === undefined ? undefined : Number(passkey.lastUsedAt),
        })),
      };
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
    async passkeyRegistrationOptions(userId) {
      return (await clients.secondFactors.beginPasskeyRegistration({ userId })).optionsJson;
    },
    async registerPasskey({ userId, responseJson, name, origin }) {
      await clients.secondFactors.finishPasskeyRegistration({ userId, responseJson, name, origin });
    },
    async passkeySignInOptions() {
      return (await clients.secondFactors.beginPasskeySignIn({})).optionsJson;
    },
    async signInWithPasskey({ responseJson, origin }) {
      const { sessionToken } = await clients.secondFactors.finishPasskeySignIn({ responseJson, origin });
      if (!sessionToken) throw new InternalError({ detail: 'identity answered without a session token' });
      return sessionToken;
    },
    async passkeyStepUpOptions(sessionToken) {
      return (await clients.secondFactors.beginPasskeyStepUp({ sessionToken })).optionsJson;
    },
    async stepUpWithPasskey({ sessionToken, responseJson, origin }) {
      await clients.secondFactors.finishPasskeyStepUp({ sessionToken, responseJson, origin });
    },
    async renamePasskey({ userId, passkeyId, name, origin }) {
      await clients.secondFactors.renamePasskey({ userId, passkeyId, name, origin });
    },
    async removePasskey({ userId, passkeyId, origin }) {
      await clients.secondFactors.removePasskey({ userId, passkeyId, origin });
    },
  };
}
