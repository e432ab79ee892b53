import type { DiscoveryService } from '@authz/proto/oauth/v1/oauth';
import type { ServiceImplementation } from '@authz/shared/grpc';
import {
  authorizationServerMetadata,
  openidConfiguration,
  type DiscoveryConfig,
} from '../discovery/server-metadata.js';

/** DiscoveryService: the documents depend on configuration only, so they are built once. */
export function discoveryServiceImplementation(
  config: DiscoveryConfig,
): ServiceImplementation<typeof DiscoveryService> {
  const response = {
    authorizationServerJson: JSON.stringify(authorizationServerMetadata(config)),
    openidConfigurationJson: JSON.stringify(openidConfiguration(config)),
  };
  return {
    getServerMetadata() {
      return Promise.resolve(response);
    },
  };
}
