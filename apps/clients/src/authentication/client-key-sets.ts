import { fetchPublicDocument, type OutboundPolicy } from '@authz/shared/outbound';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  customFetch,
  type FetchImplementation,
  type JSONWebKeySet,
  type JWTVerifyGetKey,
} from 'jose';
import type { AuthenticatableClient } from './authenticatable-client.js';

/** The public keys a private_key_jwt client signs its assertions with (DECISIONS.md #16). */
export interface ClientKeySets {
  /** Undefined when the client registered no usable key set. */
  forClient(client: Pick<AuthenticatableClient, 'jwks' | 'jwksUri'>): JWTVerifyGetKey | undefined;
}

/** A key set is at most this large (a few dozen keys). */
const JWKS_MAX_BYTES = 64 * 1024;
const JWKS_FETCH_TIMEOUT_MS = 5_000;
/** How long fetched keys are used before they are fetched again. */
const JWKS_CACHE_MAX_AGE_MS = 10 * 60_000;
/** After a fetch, an unknown kid triggers a refetch only once this much time has passed. */
const JWKS_COOLDOWN_MS = 30_000;
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
  const fetchKeySet = safeFetch({ ...policy, maxBytes: JWKS_MAX_BYTES, timeoutMs: JWKS_FETCH_TIMEOUT_MS });
  return {
    forClient({ jwks, jwksUri }) {
      if (jwks !== null) return localKeySet(jwks);
      if (jwksUri === null) return undefined;
      let keySet = remote.get(jwksUri);
      if (!keySet) {
        keySet = createRemoteJWKSet(new URL(jwksUri), {
          timeoutDuration: JWKS_FETCH_TIMEOUT_MS,
          cacheMaxAge: JWKS_CACHE_MAX_AGE_MS,
          cooldownDuration: JWKS_COOLDOWN_MS,
          [customFetch]: fetchKeySet,
        });
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

// jose asks for a fetch-shaped function; this one goes through the outbound policy instead.
function safeFetch(policy: OutboundPolicy): FetchImplementation {
  return async (url) => {
    const document = await fetchPublicDocument(url, policy);
    return new Response(new Uint8Array(document.body), {
      status: document.status,
      headers: { 'content-type': 'application/json' },
    });
  };
}
