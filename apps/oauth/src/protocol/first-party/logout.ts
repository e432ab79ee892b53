import { UnauthorizedError } from '@authz/shared/errors';
import type { RequestOrigin } from '../identity-port.js';
import { revokeSessionRefreshTokens } from '../refresh-token/refresh-token-family.js';
import type { Registry } from '../../registry.js';
import { verifyAccessToken } from '../access-token/verify-access-token.js';
import type { PresentedDpopProof } from '../dpop/dpop-binding.js';

/**
 * interface.md 4.2 POST /auth/logout (docs/decisions.md #3): the token must be a live first-party user
 * token; its jti is denied for its remaining lifetime, the session's refresh families are
 * revoked (with their live access tokens) and identity ends the session.
 */
export async function logout(
  deps: Registry,
  accessToken: string,
  origin: RequestOrigin,
  dpop?: PresentedDpopProof,
): Promise<void> {
  const claims = await verifyAccessToken(deps, accessToken, {
    requireFirstPartyUser: true,
    ...(dpop ? { dpop } : {}),
  });
  // Denying is the atomic step: of two concurrent logouts with one token only one gets here.
  if (!(await deps.denyList.deny(claims.jti, claims.exp))) {
    throw new UnauthorizedError({ detail: 'access token denied concurrently' });
  }
  if (claims.sid === undefined) return;
  await revokeSessionRefreshTokens(deps, claims.sid);
  await deps.identity.endSession({ sessionId: claims.sid, userId: claims.sub, origin });
}
