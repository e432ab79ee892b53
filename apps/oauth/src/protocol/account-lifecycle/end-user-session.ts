import type { RequestOrigin } from '../identity-port.js';
import { revokeSessionRefreshTokens } from '../refresh-token/refresh-token-family.js';
import type { Registry } from '../../registry.js';

/**
 * DELETE /auth/sessions/{id} and "Sign out" on the account page (interface.md 4.10): the session must
 * be a live one of the user (else NotFoundError, the same for another user's). Its refresh
 * families are revoked with their live access tokens before identity ends and audits the
 * session, as logout does (docs/tokens.md #15), so a crash in between leaves nothing usable
 * behind a session that still shows as live.
 */
export async function endUserSession(
  deps: Pick<Registry, 'accounts' | 'identity' | 'refreshTokens' | 'denyList'>,
  input: { userId: string; sessionId: string; origin: RequestOrigin },
): Promise<void> {
  await deps.accounts.requireUserSession(input.userId, input.sessionId);
  await revokeSessionRefreshTokens(deps, input.sessionId);
  await deps.identity.endSession(input);
}
