import type { DeviceAuthorizationService } from '@authz/proto/oauth/v1/device_authorization';
import type { ServiceImplementation } from '@authz/shared/grpc';
import {
  decideDeviceConsent,
  getDeviceConsentPrompt,
} from '../protocol/device-authorization/device-consent.js';
import { enterUserCode } from '../protocol/device-authorization/enter-user-code.js';
import { startDeviceAuthorization } from '../protocol/device-authorization/start-device-authorization.js';
import type { Registry } from '../registry.js';

/** DeviceAuthorizationService: thin translations between the wire messages and the protocol logic. */
export function deviceAuthorizationServiceImplementation(
  deps: Registry,
): ServiceImplementation<typeof DeviceAuthorizationService> {
  return {
    async startDeviceAuthorization({ parameters, basic, origin }) {
      return startDeviceAuthorization(deps, {
        parameters: parameters.map(({ name, value }) => ({ name, value })),
        ...(basic ? { basic: { clientId: basic.clientId, clientSecret: basic.clientSecret } } : {}),
        origin: { ip: origin?.ip ?? '', userAgent: origin?.userAgent ?? '' },
      });
    },
    async enterUserCode({ userCode }) {
      return { handle: await enterUserCode(deps, userCode) };
    },
    async getDeviceConsent({ handle, sessionToken }) {
      return getDeviceConsentPrompt(deps, handle, sessionToken);
    },
    async decideDeviceConsent({ handle, sessionToken, allow }) {
      return decideDeviceConsent(deps, { handle, sessionToken, allow });
    },
  };
}
