import type { IdentityService } from '@authz/proto/identity/v1/identity';
import type { ServiceImplementation } from '@authz/shared/grpc';
import { register } from '../accounts/register.js';
import { getUserProfile } from '../accounts/user-profile.js';
import { toUserMessage } from '../accounts/user-view.js';
import { verifiedEmails } from '../accounts/verified-emails.js';
import { ensureDeveloper } from '../developers/ensure-developer.js';
import type { Registry } from '../registry.js';
import { checkCredentials } from '../sessions/check-credentials.js';
import { endSession } from '../sessions/end-session.js';
import { getBrowserSession } from '../sessions/get-browser-session.js';
import { signInMessage } from './sign-in-message.js';
import { completeSecondFactor } from '../second-factors/complete-second-factor.js';
import { stepUpSession } from '../second-factors/step-up-session.js';
import { resendVerification } from '../verification/resend-verification.js';
import { verifyEmail } from '../verification/verify-email.js';
import { walletCredentialRpcs } from '../wallet/wallet-credential-rpcs.js';
import { federatedVerifiedEmails } from '../federation/federated-verified-emails.js';
import { walletVerifiedEmails } from '../wallet/wallet-verified-emails.js';

/** The gRPC face of identity: thin translations to the feature logic (docs/conventions.md #2). */
export function identityServiceImplementation(
  registry: Registry,
): ServiceImplementation<typeof IdentityService> {
  return {
    async register(request) {
      return { user: toUserMessage(await register(registry, request)) };
    },
    async verifyEmail(request) {
      return { email: await verifyEmail(registry, request.token, request.origin) };
    },
    async resendVerification(request) {
      await resendVerification(registry, request.email);
      return {};
    },
    async checkCredentials(request) {
      const checked = await checkCredentials(registry, request);
      if (checked.mfaToken !== undefined) return { mfaToken: checked.mfaToken };
      return signInMessage(checked);
    },
    async stepUpSession(request) {
      return { amr: await stepUpSession(registry, request) };
    },
    async completeSecondFactor(request) {
      return signInMessage(await completeSecondFactor(registry, request));
    },
    async getUser(request) {
      // One read for the account and its credentials, shared by the calls of a turn (docs/performance.md #21).
      const { user, walletEmails, federatedEmails } = await getUserProfile(
        registry.userProfiles,
        request.userId,
      );
      // Wallet attestations first (interface.md 4.3 trust order; oauth applies it).
      return {
        user: toUserMessage(user),
        verifiedEmails: [
          ...walletVerifiedEmails(walletEmails),
          ...federatedVerifiedEmails(federatedEmails),
          ...verifiedEmails(user),
        ],
      };
    },
    async endSession(request) {
      await endSession(registry, request);
      return {};
    },
    async ensureDeveloper(request) {
      return { developerId: await ensureDeveloper(registry.accounts, request.userId) };
    },
    async getBrowserSession(request) {
      const { session, user, csrfToken } = await getBrowserSession(registry, request.sessionToken);
      return {
        sessionId: session.id,
        user: toUserMessage(user),
        authTime: epochSeconds(session.authTime),
        csrfToken,
        amr: session.amr,
      };
    },
    ...walletCredentialRpcs(registry),
  };
}

/** OIDC auth_time is in seconds. */
function epochSeconds(date: Date): bigint {
  return BigInt(Math.floor(date.getTime() / 1000));
}
