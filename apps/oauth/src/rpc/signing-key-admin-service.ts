import type { SigningKeyAdminService } from '@authz/proto/oauth/v1/signing_keys';
import type { ServiceImplementation } from '@authz/shared/grpc';
import type { KeyRing, PublishedSigningKey } from '../keys/key-ring.js';

/**
 * The signing keys of the operator API (interface.md 4.15): the key ring's list and the same
 * two-phase rotation the operator command runs (docs/tokens.md #7, docs/admin-api.md #10).
 */
export function signingKeyAdminServiceImplementation(
  keys: Pick<KeyRing, 'listSigningKeys' | 'rotateSigningKey'>,
): ServiceImplementation<typeof SigningKeyAdminService> {
  return {
    async listSigningKeys() {
      return { keys: (await keys.listSigningKeys()).map(toWire) };
    },
    async rotateSigningKeys() {
      const { kids, activatesAt } = await keys.rotateSigningKey();
      const rotated = new Set(Object.values(kids));
      const listed = await keys.listSigningKeys();
      return {
        keys: listed.filter((key) => rotated.has(key.kid)).map(toWire),
        activatesAt: BigInt(activatesAt.getTime()),
      };
    },
  };
}

function toWire(key: PublishedSigningKey) {
  return {
    kid: key.kid,
    alg: key.alg,
    createdAt: BigInt(key.createdAt.getTime()),
    activatesAt: BigInt(key.activatesAt.getTime()),
    ...(key.retiresAt ? { retiresAt: BigInt(key.retiresAt.getTime()) } : {}),
    ...(key.publishedUntil ? { publishedUntil: BigInt(key.publishedUntil.getTime()) } : {}),
  };
}
