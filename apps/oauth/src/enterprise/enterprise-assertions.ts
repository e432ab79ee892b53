import type { Redis } from 'ioredis';
import type { IdentityUser } from '../protocol/identity-port.js';
import type { EnterpriseAssertions } from '../protocol/id-jag/enterprise-port.js';
import { claimIdJagJti } from './id-jag-jti-store.js';
import { trustedIssuerKeys } from './trusted-issuer-keys.js';
import { issuerMayAssertEmail, type TrustedIssuer } from './trusted-issuers-file.js';

export interface EnterpriseAssertionParts {
  trustedIssuers: readonly TrustedIssuer[];
  /** Test-only CIMD_ALLOW_INSECURE_LOOPBACK: loopback http jwks_uri, fetched from loopback. */
  allowInsecureLoopback: boolean;
  /** Keys carry the service's REDIS_KEY_PREFIX (ioredis keyPrefix). */
  redis: Redis;
  findUserByVerifiedEmail(email: string): Promise<IdentityUser>;
}

/** What the jwt-bearer grant runs on while ENTERPRISE_ASSERTION_ENABLED is on. */
export function openEnterpriseAssertions(parts: EnterpriseAssertionParts): EnterpriseAssertions {
  const issuerKeys = trustedIssuerKeys(parts.trustedIssuers, {
    allowInsecureLoopback: parts.allowInsecureLoopback,
  });
  const byIssuer = new Map(parts.trustedIssuers.map((entry) => [entry.issuer, entry]));
  return {
    issuerKeys,
    mayAssertEmail: (issuer, email) => {
      const entry = byIssuer.get(issuer);
      return entry !== undefined && issuerMayAssertEmail(entry, email);
    },
    claimJti: (issuer, jti, ttlSeconds) => claimIdJagJti(parts.redis, issuer, jti, ttlSeconds),
    findUserByVerifiedEmail: parts.findUserByVerifiedEmail,
  };
}
