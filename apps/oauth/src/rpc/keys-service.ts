import type { KeysService } from '@authz/proto/oauth/v1/oauth';
import type { ServiceImplementation } from '@authz/shared/grpc';
import type { KeyRing } from '../keys/key-ring.js';

/** KeysService.GetJwks: the JWK Set of interface.md 4.4, serialized (RFC 7517 section 5). */
export function keysServiceImplementation(
  keys: Pick<KeyRing, 'jwks'>,
): ServiceImplementation<typeof KeysService> {
  return {
    async getJwks() {
      return { jwksJson: JSON.stringify(keys.jwks()) };
    },
  };
}
