import { remoteKeySets, type OutboundPolicy } from '@authz/shared/outbound';
import { createLocalJWKSet, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';
import type { AuthenticatableClient } from './authenticatable-client.js';

/** The public keys a private_key_jwt client signs its assertions with (docs/decisions.md #16). */
export interface ClientKeySets {
  /** Undefined when the client registered no usable key set. */
  forClient(client: Pick<AuthenticatableClient, 'jwks' | 'jwksUri'>): JWTVerifyGetKey | undefined;
}

/** Remote key sets kept in memory; the oldest is dropped first. */
const MAX_REMOTE_KEY_SETS = 1_000;

/**
 * Inline `jwks` are used as registered. A `jwks_uri` is fetched through the SSRF-safe
 * outbound fetcher (no private addresses, no redirects, size and time bounded) and cached per
 * URI with jose's remote key set, which refetches on an unknown kid after a cooldown (key
 * rotation, RFC 7517 section 4.5).
 */
export function createClientKeySets(policy: Pick<OutboundPolicy, 'allowInsecureLoopback'>): ClientKeySets {
  const remote = new Map<string, JWTVerifyGetKey>();
  const remoteKeySet = remoteKeySets(policy);
  return {
    forClient({ jwks, jwksUri }) {
      if (jwks !== null) return localKeySet(jwks);
      if (jwksUri === null) return undefined;
      let keySet = remote.get(jwksUri);
      if (!keySet) {
        keySet = remoteKeySet(new URL(jwksUri));
        if (remote.size >= MAX_REMOTE_KEY_SETS) remote.delete(remote.keys().next().value!);
        remote.set(jwksUri, keySet);
      }
      return keySet;
    },
  };
}

function localKeySet(jwks: unknown): JWTVerifyGetKey | undefined {
  try {
    return createLocalJWKSet(jwks as JSONWebKeySet);
  } catch {
    return undefined;
  }
}
