import { denyAll } from '../access-token/deny-list.js';
import { revokeSessionRefreshTokens } from '../refresh-token/refresh-token-family.js';
import type { Registry } from '../../registry.js';

/**
 * interface.md 4.3: a session that ends takes its tokens with it: every refresh family opened in
 * it (with the live access tokens issued in them, docs/tokens.md #11) and the live access
 * tokens of its codes that opened no family. Idempotent, so a session end seen twice (the
 * logout that ended it, then the session-events queue) costs nothing more.
 */
export async function revokeSessionTokens(
  deps: Pick<Registry, 'refreshTokens' | 'denyList' | 'authorizationCodes'>,
  sessionId: string,
  now = new Date(),
): Promise<void> {
  await revokeSessionRefreshTokens(deps, sessionId, now);
  await denyAll(deps.denyList, await deps.authorizationCodes.liveAccessTokensOfSession(sessionId, now));
}
