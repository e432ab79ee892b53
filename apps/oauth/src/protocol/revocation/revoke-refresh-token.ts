import type { AuthenticatedClient } from '../client-authentication/authenticated-client.js';
import {
  findPresentedRefreshToken,
  revokeRefreshTokenFamily,
} from '../refresh-token/refresh-token-family.js';
import type { Registry } from '../../registry.js';

type Deps = Pick<Registry, 'config' | 'refreshTokens' | 'denyList'>;

/**
 * interface.md 2.5 and RFC 9700 section 4.14.2: any token of a family, rotated or not, revokes the
 * whole family and denies the access tokens issued in it, when the caller is the family's
 * client (RFC 7009 section 2.1). True when the token is one of ours, whoever asked.
 */
export async function revokeRefreshToken(
  deps: Deps,
  token: string,
  caller: AuthenticatedClient,
): Promise<boolean> {
  const stored = await findPresentedRefreshToken(deps, token);
  if (!stored) return false;
  if (stored.family.clientId === caller.clientId && !stored.family.revokedAt) {
    await revokeRefreshTokenFamily(deps, stored.familyId);
  }
  return true;
}
