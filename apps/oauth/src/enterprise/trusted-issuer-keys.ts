import { fetchPublicDocument, type OutboundPolicy } from '@authz/shared/outbound';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  customFetch,
  type FetchImplementation,
  type JWTVerifyGetKey,
} from 'jose';
import type { TrustedIssuer } from './trusted-issuers-file.js';

/** A key set is at most this large (a few dozen keys). */
const JWKS_MAX_BYTES = 64 * 1024;
const JWKS_FETCH_TIMEOUT_MS = 5_000;
/** How long fetched keys are used before they are fetched again. */
const JWKS_CACHE_MAX_AGE_MS = 10 * 60_000;
/** After a fetch, an unknown kid triggers a refetch only once this much time has passed. */
const JWKS_COOLDOWN_MS = 30_000;

/**
 * The verification keys of each trusted issuer (docs/enterprise-assertions.md #8). Inline `jwks`
 * are used as configured; a `jwks_uri` is fetched through the SSRF-safe outbound fetcher (no
 * private addresses, no redirects, size and time bounded), cached, and refetched on an
 * unknown kid after a cooldown (key rotation, RFC 7517 section 4.5), as the clients service
 * does for private_key_jwt. Any other issuer has no keys.
 */
export function trustedIssuerKeys(
  issuers: readonly TrustedIssuer[],
  policy: Pick<OutboundPolicy, 'allowInsecureLoopback'>,
): (issuer: string) => JWTVerifyGetKey | undefined {
  const fetchKeySet = safeFetch({ ...policy, maxBytes: JWKS_MAX_BYTES, timeoutMs: JWKS_FETCH_TIMEOUT_MS });
  const keys = new Map<string, JWTVerifyGetKey>(
    issuers.map((entry) => [
      entry.issuer,
      'jwks' in entry
        ? createLocalJWKSet(entry.jwks)
        : createRemoteJWKSet(new URL(entry.jwksUri), {
            timeoutDuration: JWKS_FETCH_TIMEOUT_MS,
            cacheMaxAge: JWKS_CACHE_MAX_AGE_MS,
            cooldownDuration: JWKS_COOLDOWN_MS,
            [customFetch]: fetchKeySet,
          }),
    ]),
  );
  return (issuer) => keys.get(issuer);
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
