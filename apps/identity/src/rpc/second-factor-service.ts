import type { SecondFactorService } from '@authz/proto/identity/v1/second_factors';
import type { ServiceImplementation } from '@authz/shared/grpc';
import type { Registry } from '../registry.js';
import {
  beginTotpEnrolment,
  confirmTotpEnrolment,
  getSecondFactors,
  removeTotp,
} from '../second-factors/totp-enrolment.js';

/** The gRPC face of second factors (docs/strong-authentication.md): thin translations. */
export function secondFactorServiceImplementation(
  registry: Registry,
): ServiceImplementation<typeof SecondFactorService> {
  return {
    async getSecondFactors(request) {
      return getSecondFactors(registry, request.userId);
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
  };
}
