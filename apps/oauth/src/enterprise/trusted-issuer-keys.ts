import { remoteKeySets, type OutboundPolicy } from '@authz/shared/outbound';
import { createLocalJWKSet, type JWTVerifyGetKey } from 'jose';
import type { TrustedIssuer } from './trusted-issuers-file.js';

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
  const remoteKeySet = remoteKeySets(policy);
  const keys = new Map<string, JWTVerifyGetKey>(
    issuers.map((entry) => [
      entry.issuer,
      'jwks' in entry ? createLocalJWKSet(entry.jwks) : remoteKeySet(new URL(entry.jwksUri)),
    ]),
  );
  return (issuer) => keys.get(issuer);
}
