import { UnauthorizedError } from '@authz/shared/errors';
import type { AuthenticatedClient } from '../client-authentication/authenticated-client.js';
import type { Registry } from '../../registry.js';
import { verifyLiveAccessToken, type VerifiedAccessToken } from '../access-token/verify-access-token.js';

type Deps = Pick<Registry, 'accessTokenSignatures' | 'config' | 'denyList'>;

/**
 * interface.md 2.5: a revoked access token is denied by its jti for its remaining lifetime. Only the
 * client it was issued to (its client_id claim) may revoke it; RFC 7009 section 2.1 lets the
 * server leave the refresh token it came with alone, and so it does (docs/tokens.md #24).
 * True when the token is a live access token of ours, whether or not it was the caller's.
 */
export async function revokeAccessToken(
  deps: Deps,
  token: string,
  caller: AuthenticatedClient,
): Promise<boolean> {
  const claims = await verifyOrUndefined(deps, token);
  if (!claims) return false;
  if (claims.clientId === caller.clientId) await deps.denyList.deny(claims.jti, claims.exp);
  return true;
}

// Expired, foreign or already denied: nothing to do. An unreachable deny-list is still an error.
async function verifyOrUndefined(deps: Deps, token: string): Promise<VerifiedAccessToken | undefined> {
  try {
    return (await verifyLiveAccessToken(deps, token)).claims;
  } catch (error) {
    if (error instanceof UnauthorizedError) return undefined;
    throw error;
  }
}
