import type { JWTVerifyGetKey } from 'jose';
import type { IdentityUser } from '../identity-port.js';

/**
 * What the jwt-bearer grant needs to accept ID-JAGs (ENTERPRISE_ASSERTION_ENABLED), free of
 * files, HTTP and Redis. The registry holds it only while the feature is on.
 */
export interface EnterpriseAssertions {
  /** The keys of an issuer listed in ENTERPRISE_TRUSTED_ISSUERS_FILE; undefined for any other. */
  issuerKeys(issuer: string): JWTVerifyGetKey | undefined;
  /** docs/enterprise-assertions.md #20: whether the issuer may assert this address (its domain). */
  mayAssertEmail(issuer: string, email: string): boolean;
  /** RFC 7523 section 3 item 7: claims an assertion's jti until it expires; false when used. */
  claimJti(issuer: string, jti: string, ttlSeconds: number): Promise<boolean>;
  /** docs/enterprise-assertions.md #6: the local account; NotFoundError when there is none. */
  findUserByVerifiedEmail(email: string): Promise<IdentityUser>;
}
