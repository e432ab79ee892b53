import { createRemoteJWKSet, customFetch, type FetchImplementation, type JWTVerifyGetKey } from 'jose';
import { fetchPublicDocument } from './fetch-public-document.js';
import type { OutboundPolicy } from './outbound-policy.js';

/** A key set is at most this large (a few dozen keys). */
const JWKS_MAX_BYTES = 64 * 1024;
const JWKS_FETCH_TIMEOUT_MS = 5_000;
/** How long fetched keys are used before they are fetched again. */
const JWKS_CACHE_MAX_AGE_MS = 10 * 60_000;
/** After a fetch, an unknown kid triggers a refetch only once this much time has passed. */
const JWKS_COOLDOWN_MS = 30_000;

/**
 * Remote key sets (`jwks_uri` of private_key_jwt clients, of trusted ID-JAG issuers) fetched
 * through the SSRF-safe outbound fetcher (no private addresses, no redirects, size and time
 * bounded), cached by jose, and refetched on an unknown kid after a cooldown (key rotation,
 * RFC 7517 section 4.5). The returned function makes one key set per URL it is given.
 */
export function remoteKeySets(
  policy: Pick<OutboundPolicy, 'allowInsecureLoopback'>,
): (jwksUri: URL) => JWTVerifyGetKey {
  const fetchKeySet = safeFetch({ ...policy, maxBytes: JWKS_MAX_BYTES, timeoutMs: JWKS_FETCH_TIMEOUT_MS });
  return (jwksUri) =>
    createRemoteJWKSet(jwksUri, {
      timeoutDuration: JWKS_FETCH_TIMEOUT_MS,
      cacheMaxAge: JWKS_CACHE_MAX_AGE_MS,
      cooldownDuration: JWKS_COOLDOWN_MS,
      [customFetch]: fetchKeySet,
    });
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
