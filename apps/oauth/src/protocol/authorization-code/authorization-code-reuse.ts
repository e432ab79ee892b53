import type { IssuedTokens, StoredAuthorizationCode } from './authorization-code-store.js';
import { revokeRefreshTokenFamily } from '../refresh-token/refresh-token-family.js';
import type { Registry } from '../../registry.js';
import { denyAll } from '../access-token/deny-list.js';

type Deps = Pick<Registry, 'authorizationCodes' | 'refreshTokens' | 'derivedTokens' | 'denyList' | 'log'>;

/**
 * RFC 6749 section 4.1.2 and RFC 9700 section 4.2.4: a code used twice means it leaked; what
 * its first redemption issued is revoked. When that is not recorded yet, the mark left here
 * makes the first redemption revoke it itself (docs/authorization.md #12).
 */
export async function revokeReusedCode(deps: Deps, code: StoredAuthorizationCode, now: Date): Promise<void> {
  const issued = await deps.authorizationCodes.markReused(code.id, now);
  if (issued) await revokeIssuedTokens(deps, issued, now);
  deps.log.warn({ clientId: code.clientId }, 'authorization code reused: issued tokens revoked');
}

/**
 * Revokes the refresh-token family (with its live access tokens) and denies the access token,
 * and what was exchanged from it (docs/tokens.md #30: a code-only token has no family).
 */
export async function revokeIssuedTokens(deps: Deps, issued: IssuedTokens, now: Date): Promise<void> {
  if (issued.refreshFamilyId) await revokeRefreshTokenFamily(deps, issued.refreshFamilyId, now);
  await deps.denyList.deny(issued.accessToken.jti, issued.accessToken.expiresAt);
  await denyAll(deps.denyList, await deps.derivedTokens.liveDerivedFrom(issued.accessToken.jti, now));
}
