import { OAuthError } from '@authz/shared/errors';
import type { Registry } from '../../registry.js';
import type { BackchannelDeliveries } from './backchannel-port.js';
import { revokeSessionTokens } from './revoke-session-tokens.js';

export interface SessionEnded {
  sessionId: string;
  userId: string;
}

export type SessionEndedDeps = Pick<
  Registry,
  'refreshTokens' | 'denyList' | 'authorizationCodes' | 'clients' | 'log'
> & { backchannel: BackchannelDeliveries };

/**
 * The one place every session end arrives (interface.md 4.3, docs/tokens.md #26): identity's outbox puts each end on the session-events queue, whatever ended it. The
 * session's tokens are revoked, then every client issued a code in that session that
 * registered a back-channel logout URI gets a delivery job (OIDC Back-Channel Logout 1.0
 * section 2.5: "each RP ... with which the session ... was associated"). A client that no longer
 * resolves (deleted, disabled) is skipped; any other failure throws, so the queue retries the
 * whole step, which is idempotent (delivery job ids are per session and client).
 */
export async function handleSessionEnded(deps: SessionEndedDeps, ended: SessionEnded): Promise<void> {
  await revokeSessionTokens(deps, ended.sessionId);
  for (const clientId of await deps.authorizationCodes.clientsOfSession(ended.sessionId)) {
    let backchannelLogoutUri: string | undefined;
    try {
      ({ backchannelLogoutUri } = await deps.clients.resolveClient(clientId));
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      deps.log.info({ clientId }, 'session ended: client no longer resolves; no back-channel logout');
      continue;
    }
    if (backchannelLogoutUri === undefined) continue;
    await deps.backchannel.enqueue({ clientId, sessionId: ended.sessionId, userId: ended.userId });
  }
}
