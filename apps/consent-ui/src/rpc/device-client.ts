import type { DeviceAuthorizationService } from '@authz/proto/oauth/v1/device_authorization';
import type { ServiceClient } from '@authz/shared/grpc';
import type { DevicePort } from '../pages/device/device-port.js';

/** DevicePort over the oauth service's gRPC contract; its AppErrors arrive rebuilt. */
export function deviceOverGrpc(client: ServiceClient<typeof DeviceAuthorizationService>): DevicePort {
  return {
    async enterUserCode(request) {
      return (await client.enterUserCode(request)).handle;
    },
    async getDeviceConsent(request) {
      const { clientId, clientName, clientSource, scopes } = await client.getDeviceConsent(request);
      return { clientId, clientName, clientSource, scopes };
    },
    async decideDeviceConsent(request) {
      const { approved } = await client.decideDeviceConsent(request);
      return { approved };
    },
  };
}
