import { acrOf } from '@authz/shared/protocol';

/**
 * OIDC Core 2 `acr` and `amr` of a token (RFC 8176 values): the acr always, the amr when the
 * methods are known (a session from before they were recorded has none, and an empty list
 * says nothing, docs/strong-authentication.md #5).
 */
export function authenticationClaims(amr: readonly string[]): { acr: string; amr?: string[] } {
  return { acr: acrOf(amr), ...(amr.length > 0 ? { amr: [...amr] } : {}) };
}
