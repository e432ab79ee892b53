import { UnsupportedGrantTypeError } from '@authz/shared/errors';
import { acceptIdJag } from '../id-jag/accept-id-jag.js';
import { JWT_BEARER_GRANT } from '../id-jag/id-jag.js';
import type { Registry } from '../../registry.js';
import type { TokenSet } from '../token/token-set.js';
import type { GrantRequest } from './grant.js';

/**
 * RFC 7523 section 2.1 JWT bearer grant, for ID-JAGs from trusted issuers only
 * (draft-ietf-oauth-identity-assertion-authz-grant section 5, docs/enterprise-assertions.md).
 * Runs only while ENTERPRISE_ASSERTION_ENABLED is on (interface.md 4.3, 4.4).
 */
export const grantType = JWT_BEARER_GRANT;
export const parameters = ['assertion', 'scope', 'resource'] as const;

export function enabled(deps: Pick<Registry, 'enterprise'>): boolean {
  return deps.enterprise !== undefined;
}

export async function handle(deps: Registry, request: GrantRequest): Promise<TokenSet> {
  // The token endpoint never selects a disabled grant; this keeps the handler honest alone.
  if (!deps.enterprise) throw new UnsupportedGrantTypeError({ detail: `grant_type ${grantType}` });
  return acceptIdJag(deps, deps.enterprise, request);
}
