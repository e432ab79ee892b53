import { keyedHash } from '@authz/shared/crypto';

/**
 * docs/federation.md #5: an upstream identity is named by the provider id and the upstream's
 * `sub` (OIDC Core 1.0 section 2: `sub` is unique only within its issuer). Only the keyed hash
 * of the pair is stored; JSON keeps the pair unambiguous whatever characters it holds.
 */
export function federatedSubjectHash(secretHashKey: Buffer, providerId: string, subject: string): string {
  return keyedHash(secretHashKey, `oidc:${JSON.stringify([providerId, subject])}`);
}

/** The provider type of interface.md 2.6 and the verified-email source name. */
export function providerType(providerId: string): string {
  return `oidc_${providerId}`;
}
