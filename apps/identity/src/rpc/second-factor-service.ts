import type { SecondFactorService } from '@authz/proto/identity/v1/second_factors';
import type { ServiceImplementation } from '@authz/shared/grpc';
import type { Registry } from '../registry.js';
import {
  beginTotpEnrolment,
  confirmTotpEnrolment,
  getSecondFactors,
  removeTotp,
} from '../second-factors/totp-enrolment.js';
import {
  passkeySummaries,
  passkeySummary,
  removePasskey,
  renamePasskey,
} from '../passkeys/passkey-management.js';
import { beginPasskeyRegistration, finishPasskeyRegistration } from '../passkeys/passkey-registration.js';
import { beginPasskeySignIn, finishPasskeySignIn } from '../passkeys/passkey-sign-in.js';
import { beginPasskeyStepUp, finishPasskeyStepUp } from '../passkeys/passkey-step-up.js';
import { signInMessage } from './sign-in-message.js';

/** The gRPC face of second factors (docs/strong-authentication.md): thin translations. */
export function secondFactorServiceImplementation(
  registry: Registry,
): ServiceImplementation<typeof SecondFactorService> {
  return {
    async getSecondFactors(request) {
      const [factors, passkeys] = await Promise.all([
        getSecondFactors(registry, request.userId),
        passkeySummaries(registry, request.userId),
      ]);
      return { ...factors, passkeys };
    },
    async beginTotpEnrolment(request) {
      return beginTotpEnrolment(registry, request);
    },
    async confirmTotpEnrolment(request) {
      return { recoveryCodes: await confirmTotpEnrolment(registry, request) };
    },
    async removeTotp(request) {
      await removeTotp(registry, request);
      return {};
    },
    async beginPasskeyRegistration(request) {
      return { optionsJson: await beginPasskeyRegistration(registry, request) };
    },
    async finishPasskeyRegistration(request) {
      return { passkey: passkeySummary(await finishPasskeyRegistration(registry, request)) };
    },
    async beginPasskeySignIn() {
      return { optionsJson: await beginPasskeySignIn(registry) };
    },
    async finishPasskeySignIn(request) {
      // Only the hosted pages sign in with a passkey: the session gets a cookie token.
      return signInMessage(await finishPasskeySignIn(registry, request, true));
    },
    async beginPasskeyStepUp(request) {
      return { optionsJson: await beginPasskeyStepUp(registry, request) };
    },
    async finishPasskeyStepUp(request) {
      return { amr: await finishPasskeyStepUp(registry, request) };
    },
    async renamePasskey(request) {
      await renamePasskey(registry, request);
      return {};
    },
    async removePasskey(request) {
      await removePasskey(registry, request);
      return {};
    },
  };
}
